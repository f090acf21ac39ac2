/** The factor, from TEST_TIME_SCALE or the machine's load (never below 3 unless TEST_TIME_SCALE says so). */
export function timeScale(env?: NodeJS.ProcessEnv, load?: number, cores?: number): number;
/** The factor this run uses. */
export const TIME_SCALE: number;
/** An idle machine's budget in ms, scaled for this one (whole ms). */
export function scaled(ms: number): number;
