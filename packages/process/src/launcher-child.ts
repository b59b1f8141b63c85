/**
 * The launcher process (launcher.ts): starts processes for the server that forked it and hands
 * their pipes back over the IPC channel. A process this small forks in a few milliseconds, where
 * a fork of the server (hundreds of MB of page tables) blocks the server's event loop for 10-30 ms.
 *
 * Runs as its own file with nothing but Node's modules (type-stripped in tests, compiled in dist).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { getPriority, setPriority } from 'node:os';
import type { FromLauncher, LaunchRequest, ToLauncher } from './protocol.js';

const children = new Map<number, ChildProcess>();

function send(message: FromLauncher, handle?: Socket): void {
  // After the server is gone there is no one to tell; the launcher is about to exit.
  if (!process.connected) return;
  // The channel can break before Node has noticed the server is gone (a process exiting just
  // after the server died: EPIPE, seen in the bench). Without a callback that error is an
  // unhandled 'error' event, and the launcher would die printing it; it leaves quietly instead.
  process.send?.(message, handle, {}, (error: Error | null) => {
    if (error) process.exit(0);
  });
}

function sendError(id: number, error: NodeJS.ErrnoException): void {
  send({
    op: 'error',
    id,
    message: error.message,
    code: error.code,
    errno: error.errno,
    syscall: error.syscall,
    path: error.path,
  });
}

/**
 * A pipe must not be read here: what the launcher read before the handle left would be lost to the
 * server. Node starts reading a child's pipe as soon as it wraps it, so reading stops at once, in
 * the same tick as the spawn, before the event loop can deliver any of it.
 */
function stopReading(socket: Socket): void {
  const handle = (socket as unknown as { _handle?: { readStop?: () => number; reading?: boolean } })._handle;
  handle?.readStop?.();
  if (handle) handle.reading = false;
}

function start(request: LaunchRequest): void {
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: request.detached,
      stdio: request.stdio,
    });
  } catch (error) {
    sendError(request.id, error as NodeJS.ErrnoException);
    return;
  }
  const pipes: { fd: number; socket: Socket }[] = [];
  child.stdio.forEach((stream, fd) => {
    if (!stream) return;
    const socket = stream as unknown as Socket;
    stopReading(socket);
    pipes.push({ fd, socket });
  });
  child.on('error', (error) => sendError(request.id, error));
  child.on('exit', (code, signal) => {
    children.delete(request.id);
    send({ op: 'exit', id: request.id, code, signal });
  });
  if (child.pid === undefined) return; // spawn failed: 'error' follows
  children.set(request.id, child);
  send({ op: 'spawned', id: request.id, pid: child.pid });
  // Messages keep their order on the channel (one with a handle waits for the last one's ack,
  // and the rest queue behind it), so the server has every pipe before it hears of the exit.
  for (const { fd, socket } of pipes) send({ op: 'fd', id: request.id, fd }, socket);
}

/** The server's priority: the launcher starts at it (a fork inherits its parent's nice value). */
const serverNice = getPriority();

/**
 * Sets this thread `steps` nice steps below the server's priority. Linux keeps a nice value per
 * thread and a fork inherits the forking thread's, so every process started from here (spawn runs
 * on this, the event loop's thread) starts at it, before it can start any of its own. Lowering
 * needs no privilege; going back up does, and without it the launcher stays where it was.
 */
function lowerPriority(steps: number): void {
  try {
    setPriority(Math.min(19, serverNice + steps));
  } catch {
    // Not permitted (raising again without CAP_SYS_NICE): what is started keeps the last value.
  }
}

lowerPriority(Number(process.argv[2] ?? 0) || 0);

process.on('message', (message: ToLauncher) => {
  if (message.op === 'spawn') start(message);
  else if (message.op === 'kill') children.get(message.id)?.kill(message.signal);
  else if (message.op === 'priority') lowerPriority(message.steps);
});

// The server is gone (exited, crashed): so is the reason to be here. What was started goes on, as
// it would have had the server started it itself (bwrap's --die-with-parent ends with us).
process.on('disconnect', () => process.exit(0));
// Node does not always say 'disconnect' when the server dies with a pipe's hand-over unanswered
// (seen: the channel closed, no event), so the launcher also watches for being orphaned.
const server = process.ppid;
setInterval(() => {
  if (process.ppid !== server) process.exit(0);
}, 250).unref();
