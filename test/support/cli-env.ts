/**
 * The environment a test gives a `mnemo` it starts with an environment of its own (an MCP host passes
 * little more than PATH): the CLI bundle `npm test` built, named as in its own environment. Without
 * it bin/mnemo.mjs compiles the sources through tsx, ~1.5 CPU s a start against ~0.4 bundled.
 */
export const cliBundleEnv: Record<string, string> =
  process.env.MNEMO_TEST_CLI_BUNDLE === undefined
    ? {}
    : { MNEMO_TEST_CLI_BUNDLE: process.env.MNEMO_TEST_CLI_BUNDLE };
