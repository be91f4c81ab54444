import type { Command } from 'commander';
import { collect } from './option-values.js';
import { lazyAction } from '../lazy-action.js';

/** `framewright chat`: a streamed reply (Ctrl+C cancels and saves nothing); conversations in the journal. */
export function registerChatCommand(program: Command): void {
  program
    .command('chat')
    .description(
      'chat with a text or vision model; the reply streams as it arrives and the turn is kept in the journal',
    )
    .argument('[message...]', 'your message')
    .option('--model <alias>', 'chat model alias (default: the first available)')
    .option('--system <prompt>', 'system prompt of a new conversation')
    .option('--attach <file>', 'attach an image or video (vision models), repeatable', collect, [])
    .option('--inline', 'send attached images inline as data: URLs where the model allows it')
    .option('--conversation <id>', 'continue this conversation')
    .option('--temperature <x>', 'only where the model allows it')
    .option('--top-p <x>', 'only where the model allows it')
    .option('--max-tokens <n>', 'only where the model allows it')
    .option('--param <name=value>', 'another sampling field the model allows, repeatable', collect, [])
    .option('--list', 'list saved conversations')
    .option('--search <text>', 'search saved conversations')
    .option('--show <id>', 'print a saved conversation')
    .action(lazyAction(() => import('../actions/chat.js').then((m) => m.runChatCommand)));
}
