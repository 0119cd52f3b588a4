/**
 * TEST_DEPTH (default 1) scales the heaviest property, race and volume tests:
 * `npm test` runs them at a size that still proves the behaviour, and
 * `TEST_DEPTH=3 npm test` (or more) runs them longer to hunt rarer cases.
 */
export const TEST_DEPTH = Math.max(1, Math.floor(Number(process.env.TEST_DEPTH ?? 1)) || 1);
