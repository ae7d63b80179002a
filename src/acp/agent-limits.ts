// What one sandboxed agent may use (issue 28's finding 4: one turn ran 300
// processes, allocated 2 GiB and wrote 2 GiB). Without systemd nor a cgroup
// of the server's own, each is what the sandbox itself can bound: resource
// limits set inside it (bash's ulimit, before the agent is exec'd: hard, so
// the agent cannot raise them) and bwrap's sizes for the tmpfs it mounts.
export interface AgentLimits {
  /** Processes and threads of the agent at once (RLIMIT_NPROC, counted in the sandbox's own user namespace). */
  processes: number;
  /**
   * Memory one process of the agent may allocate (RLIMIT_DATA: its heap and private mappings), MiB;
   * 0, the default, sets none: Node 26's V8 reserves its code range and cage as private mappings and
   * dies at start (or at its first large allocation) under any limit up to 4 GiB (docs/decisions.md).
   */
  memoryMiB: number;
  /** The scratch folder (its HOME and working folder), a tmpfs of this size, MiB. */
  scratchMiB: number;
  /** The sandbox's own /tmp, and /dev/shm, tmpfs of this size each, MiB. */
  tmpMiB: number;
  /**
   * CPU seconds the agent's whole process tree may use per turn (./cpu-budget: counted by the
   * server from /proc, for any agent, sandboxed or not); 0 counts none.
   */
  cpuSeconds: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = { processes: 256, memoryMiB: 0, scratchMiB: 256, tmpMiB: 256, cpuSeconds: 120 };
