import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../common/error-message';

describe('errorMessage', () => {
  it("reads an Error's message, a subclass's too, and an empty one as empty", () => {
    expect(errorMessage(new Error('the hub did not answer'))).toBe('the hub did not answer');
    expect(errorMessage(new RangeError('too big'))).toBe('too big');
    expect(errorMessage(new Error(''))).toBe('');
  });

  it('reads anything else thrown as its string', () => {
    expect(errorMessage('plain words')).toBe('plain words');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage(null)).toBe('null');
    expect(errorMessage({ toString: () => 'custom' })).toBe('custom');
  });

  it('does not take an object with a message for an Error', () => {
    expect(errorMessage({ message: 'not an error' })).toBe('[object Object]');
  });
});
