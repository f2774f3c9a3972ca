#!/usr/bin/env node
import { relaunchAsService } from '../core/relaunch.ts';
import { catchStopSignals } from '../core/stop-signals.ts';

// Long-running commands first become the service process (core/relaunch.ts); the command line
// itself (bin/cli.ts) is loaded after, so the launcher loads only what it needs to relaunch.
// Only then, in the process that will serve, Ctrl-C is caught (core/stop-signals.ts): a listener in
// the launcher would take a signal that execve then drops.
if (process.argv[2] === 'start' || process.argv[2] === 'worker') {
  relaunchAsService();
  catchStopSignals();
}
await import('./cli.ts');
