/** The app's version, kept in step with package.json (checked by a unit test). */
export const APP_VERSION = '0.1.0';
export const APP_NAME = 'Framewright';
