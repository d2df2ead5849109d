import type { Logger } from '../../common/logger';

/** The services' default: they are quiet unless a host gives them a logger. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
