import type { Command } from 'commander';
import { AppError } from '../../main/core/errors.js';
import type { SamplingValue } from '../../main/core/operations/chat.js';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { numberOption, resolveFor } from './playground-shared.js';

interface ChatOptions {
  model?: string;
  system?: string;
  attach: string[];
  inline?: boolean;
  conversation?: string;
  temperature?: string;
  topP?: string;
  maxTokens?: string;
  param: string[];
  list?: boolean;
  search?: string;
  show?: string;
}

function sampling(opts: ChatOptions): Record<string, SamplingValue> {
  const out: Record<string, SamplingValue> = {};
  const t = numberOption(opts.temperature, '--temperature');
  if (t !== undefined) out.temperature = t;
  const p = numberOption(opts.topP, '--top-p');
  if (p !== undefined) out.top_p = p;
  const m = numberOption(opts.maxTokens, '--max-tokens');
  if (m !== undefined) out.max_tokens = m;
  for (const pair of opts.param) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new AppError('usage', `--param takes name=value (got "${pair}").`);
    const value = pair.slice(eq + 1);
    out[pair.slice(0, eq)] = value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return out;
}

export const runChatCommand = async (words: string[], opts: ChatOptions, command: Command) => {
  await withCliCore(command, async (cli) => {
    const playground = cli.core.playground;
    if (opts.list || opts.search !== undefined) {
      const found = playground.conversations(cli.profileId, opts.search);
      if (cli.json) printJson({ conversations: found });
      else for (const c of found) process.stdout.write(`${c.id}  ${c.model}  ${c.title}\n`);
      return ExitCode.ok;
    }
    if (opts.show) {
      const conversation = playground.conversationWithMessages(opts.show);
      if (!conversation) throw new AppError('usage', `No conversation ${opts.show}.`);
      if (cli.json) printJson(conversation);
      else for (const m of conversation.messages) process.stdout.write(`${m.role}: ${m.text}\n`);
      return ExitCode.ok;
    }
    const text = words.join(' ');
    const params = sampling(opts);
    const model =
      opts.model ?? (opts.conversation ? playground.conversation(opts.conversation)?.model : undefined);
    const { client, service } = await resolveFor(cli, SERVICE_KINDS.chat, model);
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const turn = await playground.chat(client, {
        service,
        conversationId: opts.conversation,
        system: opts.system,
        text,
        attachments: opts.attach.map((filePath) => ({ filePath, inline: opts.inline })),
        sampling: params,
        signal: controller.signal,
        onToken: cli.json ? undefined : (token) => process.stdout.write(token),
      });
      if (cli.json)
        printJson({
          conversationId: turn.conversation.id,
          model: service.modelAlias,
          reply: turn.assistant.text,
          finishReason: turn.assistant.finishReason ?? null,
          usage: turn.assistant.usage ?? null,
        });
      else process.stdout.write(`\n(conversation ${turn.conversation.id})\n`);
      return ExitCode.ok;
    } finally {
      process.off('SIGINT', onSigint);
    }
  });
};
