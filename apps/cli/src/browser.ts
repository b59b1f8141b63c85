import { spawn } from 'node:child_process';

type Env = Record<string, string | undefined>;

/**
 * Whether a browser can be opened here: on Linux and the BSDs only with a display (an SSH session
 * or a container has none, and xdg-open would fall back to a text browser inside our terminal).
 */
export function canOpenBrowser(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (env.BROWSER) return true;
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Starts the user's browser on `url`; false when no opener could be started. Never waits for it. */
export function openBrowser(
  url: string,
  env: Env = process.env,
  platform = process.platform,
): Promise<boolean> {
  const [command, ...args] = env.BROWSER
    ? [env.BROWSER, url]
    : platform === 'darwin'
      ? ['open', url]
      : platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url.replace(/&/g, '^&')]
        : ['xdg-open', url];
  return new Promise((resolve) => {
    try {
      const child = spawn(command!, args, { detached: true, stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
