/**
 * The one result builder of a tool call. The pipeline's steps put into it what they decide (a refusal,
 * a note before or after, the child's answer) and it writes the result once: the only place in the
 * bridge where a refusal becomes an error result or a note becomes part of a result's content. Both
 * doors and the activity list read what `finish` made: the MCP door sends it as it is, the language-model
 * door turns it into its own parts with `convertToolResult` below.
 */
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CALL_MARKS_META } from '../../protocol/callMarks';
import { stripAnsi } from '../results/ansi';
import { fitImageToEach, ImageLimits, MODEL_IMAGE_LIMITS } from '../results/imageDownscale';
import { withoutErrorHeading } from '../results/resultText';

/** A finished call's result, made once for every consumer: both doors and the activity list. */
export interface FinishedResult {
  /** Text without terminal colours, images fitted to model limits (with a note when changed), the rest as it came. */
  result: CallToolResult;
  /** A small JPEG or PNG of the first image, as a data: URL, for the activity list. */
  thumbnail?: string;
  /** For a failed call: its reason in one line, for the activity list. */
  errorLine?: string;
}

const THUMBNAIL_LIMITS: ImageLimits = { maxSide: 160, maxBytes: 40_000 };

export class CallResult {
  private refusal: string | undefined;
  private readonly before: string[] = [];
  private readonly after: string[] = [];
  private answer: CallToolResult | undefined;

  /** The call does not run (or its answer is replaced): the first refusal is the one the model reads. */
  refuse(text: string): void {
    this.refusal ??= text;
  }

  get refused(): boolean {
    return this.refusal !== undefined;
  }

  /** The child answered: its result, still without the bridge's notes. */
  received(answer: CallToolResult): void {
    this.answer = answer;
  }

  /** True once the child answered (a call refused before, or lost on the way, has no answer). */
  get answered(): boolean {
    return this.answer !== undefined;
  }

  /** The bridge's own answer in words (its session tools), in place of the child's facts. */
  respond(text: string): void {
    this.answer = { ...this.answer, content: [{ type: 'text', text }] };
  }

  /** A note the model reads before the result (the browser was lost, the person changed something). */
  noteBefore(text: string): void {
    this.before.push(text);
  }

  /** A note after the result (who blocked an address). */
  noteAfter(text: string): void {
    this.after.push(text);
  }

  /**
   * The result, written once: a refusal or the child's answer, the notes before it set off by a blank
   * line inside its leading text part (clients join text parts without a separator, which glued a note to
   * upstream's first heading), the notes after it, terminal colours stripped, each image decoded at
   * most once and fitted both to model limits and (when someone shows it) to a thumbnail.
   */
  finish(options: { thumbnail?: boolean; limits?: ImageLimits } = {}): FinishedResult {
    const { [CALL_MARKS_META]: _marks, ...meta } = this.answer?._meta ?? {};
    const base: CallToolResult =
      this.refusal !== undefined
        ? { isError: true, content: [{ type: 'text', text: this.refusal }] }
        : { ...this.answer, content: this.answer?.content ?? [], ...(Object.keys(meta).length ? { _meta: meta } : { _meta: undefined }) };
    if (base._meta === undefined) delete base._meta;
    const parts: CallToolResult['content'] = [...base.content];
    if (this.before.length) {
      const note = this.before.join('\n\n');
      const first = parts[0];
      if (first?.type === 'text') parts[0] = { ...first, text: `${note}\n\n${first.text}` };
      else parts.unshift({ type: 'text', text: `${note}\n\n` });
    }
    for (const text of this.after) parts.push({ type: 'text', text: `\n${text}` });

    const limits = options.limits ?? MODEL_IMAGE_LIMITS;
    const content: CallToolResult['content'] = [];
    let thumbnail: string | undefined;
    // Only when someone shows it (the panel's store): decoding and shrinking an image costs a call time.
    let wantThumbnail = options.thumbnail ?? false;
    for (const item of parts) {
      if (item.type === 'text') content.push({ ...item, text: stripAnsi(item.text) });
      else if (item.type === 'image') {
        const original = Buffer.from(item.data, 'base64');
        const [model, small] = fitImageToEach(original, item.mimeType, wantThumbnail ? [limits, THUMBNAIL_LIMITS] : [limits]);
        wantThumbnail = false;
        // Within limits the image goes on untouched: the original text, no re-encoding.
        content.push(model.data !== original ? { ...item, data: Buffer.from(model.data).toString('base64'), mimeType: model.mimeType } : item);
        if (model.note) content.push({ type: 'text', text: model.note });
        if (small) thumbnail = `data:${small.mimeType};base64,${Buffer.from(small.data).toString('base64')}`;
      } else content.push(item);
    }
    const result: CallToolResult = { ...base, content };
    return { result, thumbnail, errorLine: result.isError ? errorLineOf(result) : undefined };
  }
}

function errorLineOf(result: CallToolResult): string {
  const first = (result.content ?? []).find(part => part.type === 'text');
  return first && first.type === 'text' ? withoutErrorHeading(first.text).split('\n')[0].slice(0, 300) : 'failed';
}

/** A tool result part, free of `vscode`: the glue turns these into language-model parts. */
export type BridgePart = { kind: 'text'; text: string } | { kind: 'image'; mimeType: string; data: Uint8Array };

/**
 * The language-model door's serialization of a finished result (`CallResult.finish` already stripped terminal
 * colours and fitted images): each MCP part as the language-model part it is, other content described in
 * words, and the failure said in words, since a language-model result has no error flag. It edits nothing.
 */
export function convertToolResult(toolName: string, result: CallToolResult): BridgePart[] {
  const parts: BridgePart[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push({ kind: 'text', text: item.text });
        break;
      case 'image':
        parts.push({ kind: 'image', mimeType: item.mimeType, data: Buffer.from(item.data, 'base64') });
        break;
      case 'resource': {
        const resource = item.resource as { uri: string; text?: string; mimeType?: string };
        const described = `Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}`;
        parts.push({ kind: 'text', text: resource.text ?? described });
        break;
      }
      case 'resource_link':
        parts.push({ kind: 'text', text: `Link: ${item.uri}${item.description ? ` — ${item.description}` : ''}` });
        break;
      default:
        parts.push({ kind: 'text', text: `(${item.type} content omitted)` });
    }
  }
  if (result.isError) {
    const firstText = parts.findIndex(part => part.kind === 'text');
    const detail = firstText >= 0 ? withoutErrorHeading((parts[firstText] as { text: string }).text) : 'no reason was given';
    const headline = `The tool ${toolName} failed: ${detail}`;
    if (firstText >= 0) parts[firstText] = { kind: 'text', text: headline };
    else parts.unshift({ kind: 'text', text: headline });
  }
  if (!parts.length) parts.push({ kind: 'text', text: `${toolName} finished with no output.` });
  return parts;
}
