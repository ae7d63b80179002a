#!/usr/bin/env -S node --max-semi-space-size=2
// The `ops` command (see cli/program.ts).
import { runOps } from './cli/program.js';

process.exitCode = await runOps(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
});
