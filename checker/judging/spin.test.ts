import { describe, expect, it } from 'vitest';
import { asPanPrints, describePanExit, PanFailed, panRounded, parsePanOutput } from './spin.ts';

// The end of a pan -a run's output, summary included, as SPIN 6.5.2 prints it.
const finished = `Depth=   68809 States=    7e+06 Transitions= 7.31e+08 Memory=   509.219	t=      105 R=   7e+04

(Spin Version 6.5.2 -- 6 December 2019)

Full statespace search for:
	never claim         	+ (never_0)
	assertion violations	+ (if within scope of claim)
	acceptance   cycles 	+ (fairness disabled)
	invalid end states	- (disabled by never claim)

State-vector 44 byte, depth reached 68809, errors: 0
  5506276 states, stored (7.02212e+06 visited)
7.2629002e+08 states, matched
7.3331214e+08 transitions (= visited+matched)
        0 atomic steps

pan: elapsed time 106 seconds
`;

describe("pan's output", () => {
  it('reads the summary of a run that finished', () => {
    const figures = parsePanOutput(finished, { status: 0, signal: null });
    expect(figures).toMatchObject({
      states: 5506276,
      // Printed as 7.3331214e+08: from 10^8 on pan rounds to 8 significant digits.
      transitions: 733312140,
      depth: 68809,
      errors: 0,
      complete: true,
      seconds: 106,
      stateVectorBytes: 44,
    });
  });

  it('knows which counts pan prints rounded', () => {
    expect(panRounded(99_999_999)).toBe(false);
    expect(panRounded(100_000_000)).toBe(true);
    expect(asPanPrints(24_065_336)).toBe(24_065_336);
    expect(asPanPrints(733_312_143)).toBe(733_312_140);
  });

  it('says how a run without a summary ended and shows the end of its output', () => {
    const progress = Array.from({ length: 70 }, (_, i) => `Depth=  ${i} States=    ${i + 1}e+06`);
    const output = `${progress.join('\n')}\npan: out of memory\n`;
    let failure: unknown;
    try {
      parsePanOutput(output, { status: 1, signal: null, seconds: 12.34 });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(PanFailed);
    const message = (failure as PanFailed).message;
    expect(message.split('\n')[0]).toBe('pan gave no summary (exit status 1, after 12.3 s); its output:');
    // The last 60 of the 71 lines, its last words included; the first lines are dropped.
    expect(message).toContain('(the last 60 of 71 lines)');
    expect(message).toContain('pan: out of memory');
    expect(message).toContain('Depth=  69 States=    70e+06');
    expect(message).not.toContain('Depth=  10 States=');
  });

  it('names a signal, and a run stopped by this process, and a run that printed nothing', () => {
    expect(describePanExit({ status: null, signal: 'SIGKILL' })).toBe('ended by signal SIGKILL');
    expect(describePanExit({ status: null, signal: 'SIGTERM', error: 'ENOBUFS' })).toBe(
      'ended by signal SIGTERM, stopped: ENOBUFS',
    );
    const failure = new PanFailed('ended by signal SIGKILL', '', 'pan -a for outage-ends');
    expect(failure.message).toBe(
      'pan -a for outage-ends gave no summary (ended by signal SIGKILL); its output:\n(pan printed nothing)',
    );
  });
});
