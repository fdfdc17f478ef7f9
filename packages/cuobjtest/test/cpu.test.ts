import { describe, expect, it } from 'vitest';
import { cpuSpent, processCpuMs, sampleCpu, selfCpuMs } from '../src/cpu.js';

describe('cpu time', () => {
  it('reads a process from /proc (every thread) and this process from cpuUsage', () => {
    const before = sampleCpu(process.pid);
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += i % 7;
    const spent = cpuSpent(before, sampleCpu(process.pid));
    expect(x).toBeGreaterThan(0);
    expect(spent.clientMs).toBeGreaterThan(0);
    expect(spent.serverMs).toBeGreaterThanOrEqual(0);
    expect(processCpuMs(process.pid)).toBeGreaterThanOrEqual(0);
    expect(selfCpuMs()).toBeGreaterThan(0);
  });

  it('leaves the server out without a pid', () => {
    expect(cpuSpent(sampleCpu(undefined), sampleCpu(undefined))).not.toHaveProperty('serverMs');
  });

  it('fails loudly for a process that does not exist', () => {
    expect(() => processCpuMs(2 ** 22 + 1)).toThrow();
  });
});
