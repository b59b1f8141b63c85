export function serverEnvAdditions(env: NodeJS.ProcessEnv): Record<string, string>;
