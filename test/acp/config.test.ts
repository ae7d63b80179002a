// Configuring agents: `--agent NAME=COMMAND`, AION_AGENTS, `demo-agent` under
// --demo, the durations and the cap, and a clear sentence for a bad setting.
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../src/config.js';

describe('agents configuration', () => {
  it('splits --agent into words without a shell, and reads AION_AGENTS with pass_env', () => {
    const config = readConfig(
      { agent: ['claude=claude-agent-acp', 'gemini=gemini  --acp "quoted"'] },
      {
        PATH: '/usr/bin',
        ANTHROPIC_API_KEY: 'sk-ant-passed',
        OTHER_SECRET: 'kept-out',
        AION_AGENTS: JSON.stringify({
          codex: { command: 'codex-acp', args: ['-v'], env: { MODE: 'x' }, pass_env: ['ANTHROPIC_API_KEY', 'UNSET'], allow_hosts: ['api.openai.com', '127.0.0.1:4000'] },
          loose: { command: 'loose-acp', sandbox: false },
        }),
      },
    );
    expect(config.agents).toEqual([
      { name: 'claude', title: 'claude', command: 'claude-agent-acp', args: [], env: {}, allowHosts: [], sandbox: 'required' },
      { name: 'gemini', title: 'gemini', command: 'gemini', args: ['--acp', '"quoted"'], env: {}, allowHosts: [], sandbox: 'required' },
      {
        name: 'codex',
        title: 'codex',
        command: 'codex-acp',
        args: ['-v'],
        env: { MODE: 'x', ANTHROPIC_API_KEY: 'sk-ant-passed' },
        allowHosts: ['api.openai.com', '127.0.0.1:4000'],
        sandbox: 'required',
      },
      { name: 'loose', title: 'loose', command: 'loose-acp', args: [], env: {}, allowHosts: [], sandbox: 'off' },
    ]);
    expect(config.agentPath).toBe('/usr/bin');
    expect(JSON.stringify(config.agents)).not.toContain('kept-out');
  });

  it('registers demo-agent under --demo, and has the documented defaults', () => {
    const config = readConfig({ demo: true }, {});
    expect(config.agents.map((a) => a.name)).toEqual(['demo-agent']);
    expect(config.agents[0]?.args.at(-1)).toBe('demo-agent');
    expect(config.agents[0]?.sandbox).toBe('preferred');
    expect(config.agentIdleMs).toBe(600_000);
    expect(config.agentMax).toBe(8);
    expect(config.agentTurnTimeoutMs).toBe(300_000);
    expect(config.agentPerOperator).toBe(2);
    expect(config.agentAnswerMaxBytes).toBe(1024 * 1024);
    expect(readConfig({}, {}).agents).toEqual([]);
  });

  it('refuses a bad setting with a sentence', () => {
    const bad = (flags: Parameters<typeof readConfig>[0], env: Record<string, string>) => () => readConfig(flags, env);
    expect(bad({ agent: ['nocommand'] }, {})).toThrow(new ConfigError('--agent must look like NAME=COMMAND; got nocommand'));
    expect(bad({ agent: ['a=x', 'a=y'] }, {})).toThrow('agent a is configured twice');
    expect(bad({ agent: ['Bad Name=x'] }, {})).toThrow(/agent name Bad Name must be lowercase/);
    expect(bad({}, { AION_AGENTS: '[' })).toThrow(/AION_AGENTS must be a JSON object/);
    expect(bad({}, { AION_AGENTS: '{"x": {"args": []}}' })).toThrow('AION_AGENTS.x: command must be a non-empty string');
    expect(bad({}, { AION_AGENTS: '{"x": {"command": "c", "env": {"A": 1}}}' })).toThrow('AION_AGENTS.x: env must be an object of strings');
    expect(bad({}, { AION_AGENT_IDLE: 'soon' })).toThrow('AION_AGENT_IDLE must be a duration like 10m, 30s or 500ms; got soon');
    expect(bad({}, { AION_AGENT_MAX: '0' })).toThrow('AION_AGENT_MAX must be a positive whole number; got 0');
    expect(bad({}, { AION_AGENT_PER_OPERATOR: 'x' })).toThrow('AION_AGENT_PER_OPERATOR must be a positive whole number; got x');
    expect(bad({}, { AION_AGENTS: '{"x": {"command": "c", "allow_hosts": ["http://a"]}}' })).toThrow(/AION_AGENTS.x: allow_hosts must be an array of host names/);
    expect(bad({}, { AION_AGENTS: '{"x": {"command": "c", "sandbox": "no"}}' })).toThrow('AION_AGENTS.x: sandbox must be true or false');
  });
});
