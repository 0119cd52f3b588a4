/**
 * The environment's proxy settings when the process is told to use them
 * (`NODE_USE_ENV_PROXY=1` or `--use-env-proxy`), as Node applies them to
 * its global agents; the SDK's handler builds agents of its own, which Node
 * leaves unproxied unless they are given the settings.
 */
export function proxyEnvOf(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): NodeJS.ProcessEnv | undefined {
  const asked = env.NODE_USE_ENV_PROXY === '1' || execArgv.includes('--use-env-proxy') || /(^|\s)--use-env-proxy(\s|$)/.test(env.NODE_OPTIONS ?? '');
  return asked ? env : undefined;
}
