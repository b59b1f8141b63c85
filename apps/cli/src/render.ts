import type { ConversationItem } from '@tandem/shared';
import { compactDiff } from './diff.js';
import type { Style } from './style.js';

/**
 * The conversation as terminal lines (workspace §3 items): messages, shell commands and their
 * output, edits as compact diffs, commits, pull requests and errors. Items arrive in time order,
 * a few at a time when following, so rendering is incremental: FeedPrinter remembers what it has
 * printed and which command each shell ran.
 */

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (typeof value === 'number' ? value : 0);
const indent = (text: string, prefix = '  ') =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `${prefix}${line}`);

/** De-duplication key, as the web feed uses (workspace §4: action id plus pid). */
export function itemKey(item: ConversationItem): string {
  return `${item.action_uuid}:${item.pid ?? ''}:${item.item_type === 'shell_message' ? item.timestamp : ''}`;
}

/** Pages and polls merged: later copies win, sorted by time. */
export function mergeItems(current: ConversationItem[], incoming: ConversationItem[]): ConversationItem[] {
  const byKey = new Map<string, ConversationItem>();
  for (const item of [...current, ...incoming]) byKey.set(itemKey(item), item);
  return [...byKey.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

/** What a code-host message was (issue comment, review…), like the web feed's header. */
function messageVerb(item: ConversationItem): string {
  const number = num(item.number);
  const on = number ? ` #${number}` : '';
  switch (item.action_type) {
    case 'issue_comment':
      return ` commented on${on}`;
    case 'pull_request_review':
      return ` reviewed${on}`;
    case 'pull_request':
      return ` ${str(item.action) || 'updated'} pull request${on}`;
    case 'send_comments':
      return ' sent review comments';
    default:
      return '';
  }
}

export class FeedPrinter {
  private readonly printed = new Set<string>();
  private readonly shellCommands = new Map<number, string>();

  constructor(private readonly style: Style) {}

  /** Lines for the items not printed before (an item changed in place is not printed again). */
  render(items: ConversationItem[]): string[] {
    const lines: string[] = [];
    for (const item of items) {
      const key = itemKey(item);
      if (this.printed.has(key)) continue;
      this.printed.add(key);
      lines.push(...this.item(item));
    }
    return lines;
  }

  private item(item: ConversationItem): string[] {
    const s = this.style;
    switch (item.item_type) {
      case 'message':
        return this.message(item);
      case 'view': {
        const paths = Object.keys((item.files as Record<string, unknown> | undefined) ?? {});
        return [s.dim(`Viewed ${paths.join(', ')}`)];
      }
      case 'edit':
        return this.edit(item);
      case 'shell': {
        const command = str(item.command) || str(item.script_path);
        if (item.pid !== null) this.shellCommands.set(item.pid, command);
        return [s.bold(`$ ${command}`)];
      }
      case 'shell_message':
        return this.shellMessage(item);
      case 'commit':
        return this.commit(item);
      case 'number_lifecycle': {
        const verb =
          str(item.action) === 'opened' ? 'Opened' : `${capitalize(str(item.action)) || 'Updated'}`;
        const title = str(item.title);
        const url = str(item.html_url);
        return [
          s.green(`${verb} ${kindOf(item.type)}#${num(item.number)}${title ? ` ${title}` : ''}`) +
            (url ? ` ${s.dim(url)}` : ''),
        ];
      }
      case 'over_budget':
        return [s.yellow(overBudget(num(item.credit_limit)))];
      case 'action':
        return this.action(item);
      default:
        return [s.dim(`(${item.item_type})`)];
    }
  }

  private message(item: ConversationItem): string[] {
    const s = this.style;
    const assistant = item.role === 'assistant';
    const name = str(item.username) || (assistant ? 'tandem' : 'user');
    const header = `${name}${messageVerb(item)}${item.pending === true ? ' (pending)' : ''}`;
    const lines = ['', assistant ? s.magenta(s.bold(header)) : s.cyan(s.bold(header))];
    const text = str(item.message);
    if (text) lines.push(...indent(text));
    const comments = Array.isArray(item.review_comments)
      ? (item.review_comments as Record<string, unknown>[])
      : [];
    for (const c of comments) {
      const first = num(c.start_line);
      const last = num(c.line);
      const where = `${str(c.path)}:${first && first !== last ? `${first}-${last}` : last}`;
      lines.push(`  ${s.dim(where)} ${str(c.body)}`);
    }
    const images = num(item.image_count);
    if (images) lines.push(s.dim(`  [${images} image${images === 1 ? '' : 's'} attached]`));
    return lines;
  }

  private edit(item: ConversationItem): string[] {
    const s = this.style;
    const before = (item.old_files as Record<string, unknown> | undefined) ?? {};
    const after = (item.new_files as Record<string, unknown> | undefined) ?? {};
    const paths = [...new Set([...Object.keys(after), ...Object.keys(before)])];
    const lines = [
      s.bold(`Edited ${paths.join(', ')}`) +
        ` ${s.green(`+${num(item.lines_added)}`)} ${s.red(`-${num(item.lines_removed)}`)}`,
    ];
    for (const path of paths) {
      if (paths.length > 1) lines.push(s.dim(`  ${path}`));
      for (const line of compactDiff(fileText(before[path]), fileText(after[path]))) {
        const colour = line.startsWith('+') ? s.green : line.startsWith('-') ? s.red : s.dim;
        lines.push(`  ${line.startsWith('@@') || line.startsWith('…') ? s.cyan(line) : colour(line)}`);
      }
    }
    return lines;
  }

  private shellMessage(item: ConversationItem): string[] {
    const s = this.style;
    const text = str(item.message);
    if (item.message_type === 'stdin') {
      // The opening command is already the shell's heading.
      const command = item.pid !== null ? this.shellCommands.get(item.pid) : undefined;
      if (command !== undefined && text.replace(/\n$/, '') === command) {
        this.shellCommands.delete(item.pid!);
        return [];
      }
      return [s.bold(`$ ${text.replace(/\n$/, '')}`)];
    }
    if (!text) return [];
    if (item.message_type === 'shutdown') return indent(text).map((line) => s.dim(line));
    return indent(text, '  │ ');
  }

  private commit(item: ConversationItem): string[] {
    const s = this.style;
    const lines = [
      s.yellow(`● Committed ${str(item.commit_sha).slice(0, 7)} to ${str(item.branch)}: `) +
        str(item.commit_message).split('\n')[0],
    ];
    if (item.script_status === 'pending') lines.push(s.dim('  Running format script...'));
    if (item.script_status === 'success') lines.push(s.green('  Format script passed'));
    if (item.script_status === 'failure') lines.push(s.red('  Format script failed'));
    const workflows = Array.isArray(item.workflows) ? (item.workflows as Record<string, unknown>[]) : [];
    for (const w of workflows) {
      const status = str(w.workflow_status).replace('_', ' ');
      const colour = status === 'success' ? s.green : status === 'failure' ? s.red : s.dim;
      lines.push(colour(`  ${str(w.workflow_name) || 'Workflow'}: ${status}`));
    }
    return lines;
  }

  private action(item: ConversationItem): string[] {
    const s = this.style;
    switch (item.action_type) {
      case 'ErrorEvent':
        return [s.red(`✗ ${str(item.exception) || 'The agent hit an error.'}`)];
      case 'OutOfCreditsEvent':
        return [s.yellow('Your installation is out of credits. Buy more now.')];
      case 'OverBudgetEvent':
      case 'OverCreditLimitEvent':
        return [s.yellow(overBudget(num(item.credit_limit)))];
      case 'TaskCompleteEvent':
        return [s.green(`✓ ${str(item.task_summary) || str(item.summary) || 'Task complete'}`)];
      case 'InterruptEvent':
        return [s.dim('Paused by the user.')];
      case 'ShutdownEvent':
        // A clean shutdown is noise; one with an exception is why the agent stopped.
        return item.exception ? [s.red(`✗ The sandbox stopped: ${str(item.exception)}`)] : [];
      case 'WaitEvent':
        return [
          s.dim(
            `${item.wait_status === 'waiting' ? 'Waiting' : 'Waited'}${num(item.seconds) ? ` ${num(item.seconds)} s` : ''} for new activity.`,
          ),
        ];
      case 'WakeEvent':
        return [s.dim('Woke up.')];
      case 'SummaryEvent':
        return [s.dim('Summarized the conversation so far.')];
      case 'AutoReviewEvent':
        return [
          s.dim(
            `Auto-review${item.auto_review_status === 'completed' ? '' : ' in progress…'}: ${str(item.summary)}`,
          ),
          ...(item.auto_review ? indent(str(item.auto_review)) : []),
        ];
      default:
        return [s.dim(str(item.summary) || str(item.action_type))];
    }
  }
}

const fileText = (value: unknown): string =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';

/** number_lifecycle items say whether the number is a pull request or an issue. */
const kindOf = (type: unknown) =>
  type === 'pull_request' ? 'pull request ' : type === 'issue' ? 'issue ' : '';

const capitalize = (text: string) => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : '');

/** Workspace §8, without the web app's link. */
const overBudget = (limit: number) =>
  `Exceeded budget of ${limit}¢ since last message. Change it in the repository settings. Message to continue.`;
