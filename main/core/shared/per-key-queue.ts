/**
 * Runs the tasks given for one key one after another, in the order given; tasks of other keys run
 * alongside. A task that fails does not stop the next. The map holds a key only while it has a task.
 */
export type PerKeyQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function perKeyQueue(): PerKeyQueue {
  const tails = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
