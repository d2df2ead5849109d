/** common/emitter.ts: every listener told in order, unsubscribing, and a throwing listener stopping none of the others. */
import { describe, expect, it } from 'vitest';
import { createEmitter } from '../../../common/emitter';

describe('createEmitter', () => {
  it('tells every listener, in order, until it unsubscribes', () => {
    const emitter = createEmitter<number>();
    const heard: string[] = [];
    const offA = emitter.on((value) => heard.push(`a${value}`));
    emitter.on((value) => heard.push(`b${value}`));
    emitter.emit(1);
    offA();
    emitter.emit(2);
    expect(heard).toEqual(['a1', 'b1', 'b2']);
    expect(emitter.size).toBe(1);
    emitter.clear();
    emitter.emit(3);
    expect(heard).toHaveLength(3);
  });

  it('tells the others when one throws: the error to onError, or thrown again after all were told', () => {
    const errors: unknown[] = [];
    const logged = createEmitter<number>((error) => errors.push(error));
    const heard: number[] = [];
    logged.on(() => {
      throw new Error('first');
    });
    logged.on((value) => heard.push(value));
    logged.emit(7);
    expect(heard).toEqual([7]);
    expect(errors).toEqual([new Error('first')]);

    const bare = createEmitter<number>();
    bare.on(() => {
      throw new Error('bare');
    });
    bare.on((value) => heard.push(value));
    expect(() => bare.emit(8)).toThrow('bare');
    expect(heard).toEqual([7, 8]);
  });

  it('lets a listener unsubscribe while it is told, without skipping another', () => {
    const emitter = createEmitter<void>();
    const heard: string[] = [];
    const off = emitter.on(() => {
      heard.push('once');
      off();
    });
    emitter.on(() => heard.push('always'));
    emitter.emit();
    emitter.emit();
    expect(heard).toEqual(['once', 'always', 'always']);
  });
});
