import { join } from 'node:path';

/** Scratch space of a bench run (git-ignored); baselines are built here, media would be saved here. */
export const TMP = 'bench/.tmp';
export const BENCH_OUTPUT_DIR = join(TMP, 'output');
export const ORBIT_BIN = 'dist/orbit-mcp.js';
