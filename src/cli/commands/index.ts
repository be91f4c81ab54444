import type { Command } from 'commander';
import { registerBatchCommand } from './batch.js';
import { registerCallsCommand } from './calls.js';
import { registerChatCommand } from './chat.js';
import { registerEmbedCommand } from './embed.js';
import { registerImageCommand } from './image.js';
import { registerOcrCommand } from './ocr.js';
import { registerParseCommand } from './parse.js';
import { registerRerankCommand } from './rerank.js';
import { registerSpeakCommand } from './speak.js';
import { registerTranscribeCommand } from './transcribe.js';
import { registerJobCommands } from './jobs.js';
import { registerLibraryCommands } from './library.js';
import { registerProfileCommands } from './profiles.js';
import { registerServeCommand } from './serve.js';
import { registerSimulatorCommand } from './simulator.js';
import { registerVideoCommand } from './video.js';
import { registerSequenceCommands } from './sequence.js';
import { registerPlatformCommands } from './platform.js';

/** Every CLI command registers itself here; one file per command. */
export const commandRegistrations: ReadonlyArray<(program: Command) => void> = [
  registerServeCommand,
  registerSimulatorCommand,
  registerProfileCommands,
  registerVideoCommand,
  registerSequenceCommands,
  registerBatchCommand,
  registerJobCommands,
  registerLibraryCommands,
  registerChatCommand,
  registerEmbedCommand,
  registerRerankCommand,
  registerOcrCommand,
  registerTranscribeCommand,
  registerSpeakCommand,
  registerImageCommand,
  registerParseCommand,
  registerCallsCommand,
  registerPlatformCommands,
];
