import { describe, expect, it } from 'vitest';
import { confirmAction } from '../../src/confirm-action.js';
import { AbortedError, InputError } from '../../src/errors.js';

type Answer = 'accepted' | 'declined' | 'unsupported';
const asking = (answer: Answer) => {
  const asked: string[] = [];
  return {
    asked,
    ctx: {
      confirm: async (message: string) => {
        asked.push(message);
        return answer;
      },
    },
  };
};
const step = (given?: string) => ({
  action: 'Delete the team "Lab".',
  expected: 'Lab',
  what: 'the team name',
  given,
});

describe('confirmAction', () => {
  it('goes ahead when the person accepts, showing them exactly what will happen', async () => {
    const { ctx, asked } = asking('accepted');
    await expect(confirmAction(ctx, step())).resolves.toBeUndefined();
    expect(asked).toEqual(['Delete the team "Lab".']);
  });

  it('stops when the person declines, even with a matching confirm argument from the model', async () => {
    const { ctx } = asking('declined');
    await expect(confirmAction(ctx, step('Lab'))).rejects.toBeInstanceOf(AbortedError);
  });

  it('takes a confirm argument equal to the expected value when the client cannot ask', async () => {
    const { ctx } = asking('unsupported');
    await expect(confirmAction(ctx, step('Lab'))).resolves.toBeUndefined();
  });

  it('refuses a missing or different confirm argument, naming it and the value to pass', async () => {
    const { ctx } = asking('unsupported');
    for (const given of [undefined, 'lab']) {
      const error = await confirmAction(ctx, step(given)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).param).toBe('confirm');
      expect((error as InputError).fix).toContain('confirm: "Lab"');
    }
  });
});
