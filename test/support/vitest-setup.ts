/** Runs in every vitest test file: the temporary folders it made go when it is done (after its own afterAll hooks). */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir';

afterAll(removeTempDirs);
