import type { Logger } from '../../main/core/ports';

/** The services' default: they are quiet unless a host gives them a logger. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
