/**
 * Sandbox constants. Kept free of heavy imports: the CLI reads these on its fast path without
 * loading the HTTP stack.
 */
import { PLATFORM_WORD } from '../word.js';

/** The word the sandbox puts in platform-named keys and headers (`x_orbit_pricing`, ...). */
export const SANDBOX_WORD = PLATFORM_WORD;

/** A key that always exists in a fresh sandbox, with a USD balance and generous limits. */
export const SANDBOX_DEMO_KEY = 'sk-orbit-sandbox-demo';
export const SANDBOX_DEMO_BALANCE_USD = 25;
export const SANDBOX_DEMO_DAILY_REQUESTS = 100_000;

/** Prefix of keys made with `state.createKey()`. */
export const SANDBOX_KEY_PREFIX = 'sk-orbit-sbx-';

export const PRICING_FIELD = `x_${SANDBOX_WORD}_pricing`;
export const DATA_ENDPOINT_HEADER = `x-${SANDBOX_WORD}-data-endpoint`;
export const DIRECT_ENDPOINT_HEADER = `x-${SANDBOX_WORD}-direct-endpoint`;

/** Control routes (faults, request log, keys) live under this prefix; they are never faulted or logged. */
export const CONTROL_PREFIX = '/__sandbox';

/** Catalog `created` stamp: fixed so catalogs are byte-identical between runs. */
export const CATALOG_CREATED = 1_735_689_600;
