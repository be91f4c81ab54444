/**
 * A command's action that loads its module only when the command runs, so that `--version`,
 * `--help` and every other command do not load (or, in the bundle, even read) its code.
 */
export function lazyAction<Args extends unknown[]>(
  load: () => Promise<(...args: Args) => Promise<void> | void>,
): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    const action = await load();
    await action(...args);
  };
}
