const INTERVAL_MS = 500;

function exists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * Sends this process SIGTERM (so the kernel drains as for any SIGTERM) once the process that
 * started it is gone. On POSIX an orphan is adopted by another process, so its parent pid
 * changes; elsewhere the original parent is asked whether it still exists.
 */
export function stopWithParent(label) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent && exists(parent)) return;
    clearInterval(timer);
    process.stderr.write(`the ${label} process that started the server (pid ${parent}) is gone; stopping\n`);
    process.kill(process.pid, 'SIGTERM');
  }, INTERVAL_MS);
  // The watch never keeps the process alive by itself.
  timer.unref();
}
