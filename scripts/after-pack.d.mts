import type { FuseV1Config, flipFuses } from '@electron/fuses';

export declare const FRAMEWRIGHT_FUSES: Readonly<FuseV1Config>;

export interface AfterPackContextLike {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName: string };
}

export declare function packagedExecutable(context: AfterPackContextLike): string;

export default function afterPack(context: AfterPackContextLike, flip?: typeof flipFuses): Promise<void>;
