import { describe, expect, it } from 'vitest';
import {
  admissionViewOfDryRun,
  dryRunAdmission,
} from '../../../src/main/core/backends/platform-runtime/dry-run-admission.js';

const at = new Date('2026-11-23T12:00:00Z');

describe('dry-run → admission view', () => {
  it('an accepted dry-run admits, with the estimated cost scaled by amountScale', () => {
    const view = admissionViewOfDryRun(
      {
        accepted: true,
        clientTaskId: 't1',
        blockers: [],
        readUrlChecks: [{ index: 0, role: 'first_frame', ok: true }],
        estimatedCost: {
          resourceType: 'video_generation',
          usage: 10,
          unit: 'second',
          estimatedAmount: 1500,
          amountScale: 2,
          currency: 'CREDIT',
        },
      },
      at,
    );
    expect(view).toEqual({
      admitted: true,
      generatedAt: at.toISOString(),
      admission: expect.objectContaining({
        decision: 'admit',
        blockers: [],
        readUrlChecks: [{ index: 0, role: 'first_frame', ok: true }],
        estimatedCost: expect.objectContaining({
          estimatedAmount: 1500,
          text: '15.00 CREDIT for 10 seconds',
        }),
      }),
    });
    expect(view.admission.reason).toBeUndefined();
  });

  it('a refused dry-run is not admitted; its reason names every blocker with its phase (what disables Generate)', () => {
    const view = admissionViewOfDryRun(
      {
        accepted: false,
        blockers: [
          {
            code: 'read_url_unreadable',
            phase: 'input_fetch',
            message: 'inputs.0.readUrl could not be read.',
            retryable: true,
            httpStatus: 422,
          },
          {
            code: 'insufficient_balance',
            phase: 'admission',
            message: 'The balance is too low.',
            retryable: false,
          },
        ],
      },
      at,
    );
    expect(view.admitted).toBe(false);
    expect(view.admission.reason).toBe(
      'inputs.0.readUrl could not be read. (input fetch); The balance is too low. (admission)',
    );
    expect(view.admission.blockers).toEqual([
      expect.objectContaining({ code: 'read_url_unreadable', phase: 'input_fetch', retryable: true }),
      expect.objectContaining({ code: 'insufficient_balance', phase: 'admission', retryable: false }),
    ]);
    expect(view.admission.estimatedCost).toBeUndefined();
  });

  it('never admits a result that says accepted but carries a blocker, nor one refused without a blocker', () => {
    const blocked = admissionViewOfDryRun({
      accepted: true,
      blockers: [{ code: 'x', phase: 'admission', message: 'Queue is full.', retryable: true }],
    });
    expect(blocked.admitted).toBe(false);
    expect(blocked.admission.reason).toBe('Queue is full. (admission)');
    const bare = admissionViewOfDryRun({ accepted: false });
    expect(bare.admitted).toBe(false);
    expect(bare.admission.reason).toBe('The platform would not accept this job.');
  });

  it('an answer that is not a dry-run result is a clear error, not an admission', async () => {
    expect(() => admissionViewOfDryRun({ blockers: [] })).toThrow(/unexpected form/);
    await expect(dryRunAdmission({ dryRun: async () => 'oops' }, {})).rejects.toMatchObject({
      code: 'api.unexpected_response',
    });
  });

  it('sends the job-creation body as it is', async () => {
    const sent: unknown[] = [];
    const body = { clientTaskId: 'draft-1', model: 'h3-video', inputs: [] };
    await dryRunAdmission({ dryRun: async (b) => (sent.push(b), { accepted: true }) }, body);
    expect(sent).toEqual([body]);
  });
});

describe('the dry-run cost is exact', () => {
  it('scales the integer amount without float drift (0.1 + 0.2 stays 0.30)', async () => {
    const { costText } =
      await import('../../../src/main/core/backends/platform-runtime/dry-run-admission.js');
    expect(costText({ estimatedAmount: 30, amountScale: 2, currency: 'CREDIT' })).toBe('0.30 CREDIT');
    expect(costText({ estimatedAmount: '123456789012345678901', amountScale: 6 })).toBe(
      '123456789012345.678901',
    );
    expect(costText({ estimatedAmount: 7, amountScale: 0, unit: 'image', usage: 1 })).toBe('7 for 1 image');
  });

  it('reads a decimal amount as the platform wrote it (the spec does not say the amount is an integer)', async () => {
    const { costText } =
      await import('../../../src/main/core/backends/platform-runtime/dry-run-admission.js');
    expect(costText({ estimatedAmount: 7.5, currency: 'CREDIT' })).toBe('7.5 CREDIT');
    expect(costText({ estimatedAmount: '12.50', currency: 'USD', unit: 'second', usage: 5 })).toBe(
      '12.50 USD for 5 seconds',
    );
    const view = admissionViewOfDryRun({
      accepted: true,
      estimatedCost: { estimatedAmount: '0.35', currency: 'CREDIT', unit: 'second', usage: 5 },
    });
    expect(view.admitted).toBe(true);
    expect(view.admission.estimatedCost).toMatchObject({ text: '0.35 CREDIT for 5 seconds' });
  });

  it('a cost in a form it cannot read is left out; the admission decision stays', () => {
    const view = admissionViewOfDryRun({
      accepted: true,
      estimatedCost: { estimatedAmount: { value: 1 }, currency: 'CREDIT' },
    });
    expect(view.admitted).toBe(true);
    expect(view.admission.estimatedCost).toBeUndefined();
  });
});
