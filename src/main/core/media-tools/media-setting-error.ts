/** A media setting whose value is not one it takes (a start-up error: exit code 2 in the CLI). */
export class MediaSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaSettingError';
  }
}
