#!/usr/bin/env node
import { relaunchAsService } from '../core/relaunch.ts';

// Long-running commands first become the service process (core/relaunch.ts); the command line
// itself (bin/cli.ts) is loaded after, so the launcher loads only what it needs to relaunch.
if (process.argv[2] === 'start' || process.argv[2] === 'worker') relaunchAsService();
await import('./cli.ts');
