import { MAX_DEPTH } from '../../../kernel/plugin/api.js';

/** The kernel's request body ceiling: no codec is asked to decode more. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * Values nested deeper than the kernel accepts in any request body are refused on the way
 * out too, so a decoded value can always be sent back (and no walker recurses without end).
 */
export const MAX_VALUE_DEPTH = MAX_DEPTH;

/**
 * Ceiling on the arrays, objects, maps (and protobuf messages, CSV lines) one decoded value may
 * hold. Binary formats spend one byte on an empty map that costs a JavaScript object of
 * 60–200 bytes, so without it a 16 MiB body could claim gigabytes. Measured at one million,
 * the worst accepted inputs took 1–2.5 s and 140–215 MB; half a million halves both.
 */
export const MAX_CONTAINERS = 500_000;
