import { toolRecord } from '../core/tools/toolRegistry';
import type { ElementHandle, Frame, Page } from 'playwright';
import { SecretEntry } from '../protocol/childMessages';
import type { SecretRefusal } from '../protocol/callMarks';

/** Where upstream types a secret's value: the text of these tools, when it is exactly a secret's name. */
export interface SecretUse {
  name: string;
  /** The element the value would go into: a snapshot ref (`e12`, `f1e3`); anything else is refused. */
  target: unknown;
}

/** Upstream's refs: `e<n>` on the page, `f<k>e<n>` inside frame k. */
const SNAPSHOT_REF = /^(f\d+)?e\d+$/;
/** How long to look for the field before refusing: the field is on the page the model just read. */
const FIND_FIELD_MS = 3000;

/** The origin of an address (`https://host:port`), or undefined for one that has none (about:blank, data:, file:). */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The origins of a page and every frame in it, as Playwright sees them (the page cannot fake these). A frame of
 * no origin (about:blank, data:) is left out: it sits inside a frame that is listed, which chose its content.
 */
export function frameOriginsOf(page: Page | undefined): string[] | undefined {
  if (!page || page.isClosed()) return undefined;
  return [
    ...new Set(
      page
        .frames()
        .map(frame => originOf(frame.url()))
        .filter((origin): origin is string => !!origin),
    ),
  ].slice(0, 100);
}

/** The secrets a call would type, as upstream looks them up: a secret's name among the texts the tool types (its record's `typesText`). */
export function secretUses(tool: string, args: Record<string, unknown> | undefined, names: ReadonlySet<string>): SecretUse[] {
  const typed = args ? (toolRecord(tool)?.typesText?.(args) ?? []) : [];
  return typed.flatMap(({ text, target }) => (typeof text === 'string' && names.has(text) ? [{ name: text, target }] : []));
}

/** Copy, cut and paste chords: with them a typed secret could be carried from its site to any other page. */
const CLIPBOARD_CHORD = /^(?:(?:control|ctrl|meta|command|cmd|controlormeta)\+(?:shift\+)?(?:c|x|v|keyc|keyx|keyv|insert)|shift\+(?:insert|delete))$/i;

/**
 * Secrets bound to their sites, as a password manager binds them: before a call types a secret, the
 * field it goes into, every frame above it and the page must all be of an origin the person allowed
 * for that secret. Otherwise nothing is typed and the host tells the model why. It also keeps a typed value
 * from being carried off: no secret while the agent routes requests, no clipboard chord while secrets are set. Checked just before upstream
 * types: a page that navigates the field's frame in that instant is the one gap (said in the README).
 */
export class SecretSites {
  private readonly names: ReadonlySet<string>;

  constructor(private readonly secrets: Record<string, SecretEntry>) {
    this.names = new Set(Object.keys(secrets));
  }

  /** The names with their sites, for the log (never the values). */
  describe(): string {
    return Object.entries(this.secrets)
      .map(([name, entry]) => `${name} (${entry.origins.join(', ') || 'no sites yet'})`)
      .join(', ');
  }

  /**
   * Why the call may not type a secret (facts; the host words them); or, when it may, the fence to take down
   * after the call (`release`, absent when the call types no secret).
   */
  async check(
    tool: string,
    args: Record<string, unknown> | undefined,
    currentPage: () => Promise<Page | undefined>,
    routed = false,
  ): Promise<{ refused: SecretRefusal } | { release?: () => Promise<void> }> {
    // While secrets are loaded, no clipboard chord: copy on the secret's site and paste elsewhere would carry the value off.
    const keyArgument = toolRecord(tool)?.pressesKey;
    const key = keyArgument ? args?.[keyArgument] : undefined;
    if (this.names.size && typeof key === 'string' && CLIPBOARD_CHORD.test(key.replaceAll(' ', ''))) return { refused: { why: 'clipboardChord', key } };
    const uses = secretUses(tool, args, this.names);
    if (!uses.length) return {};
    const page = await currentPage();
    for (const use of uses) {
      const why = routed ? { why: 'routed' as const, secret: use.name } : await this.whereNot(use, page);
      if (why) return { refused: why };
    }
    // Every secret's field is on its sites; the keys must not go anywhere else either.
    return { release: await fenceOtherSites(page!, this.sitesOfAll(uses.map(use => use.name))) };
  }

  /** The origins every one of these secrets may go to. */
  private sitesOfAll(names: string[]): Set<string> {
    const [first, ...rest] = names.map(name => new Set(this.secrets[name].origins.map(originOf).filter((o): o is string => !!o)));
    return new Set([...first].filter(origin => rest.every(sites => sites.has(origin))));
  }

  private async whereNot(use: SecretUse, page: Page | undefined): Promise<SecretRefusal | undefined> {
    const secret = use.name;
    const allowed = new Set(this.secrets[secret].origins.map(originOf).filter((o): o is string => !!o));
    if (!allowed.size) return { why: 'noSites', secret };
    const sites = [...allowed];
    // A ref names the element upstream's snapshot of this very page saw; a selector could match in another tab or frame.
    if (typeof use.target !== 'string' || !SNAPSHOT_REF.test(use.target)) return { why: 'notARef', secret };
    if (!page) return { why: 'noPage', secret };
    const pageOrigin = originOf(page.url());
    if (!pageOrigin || !allowed.has(pageOrigin)) return { why: 'pageOrigin', secret, sites, page: pageOrigin ?? page.url() };
    const frames = await this.framesOf(page, use.target);
    if (!frames) return { why: 'fieldNotFound', secret, target: use.target.slice(0, 100) };
    for (const frame of frames) {
      const origin = originOf(frame.url());
      if (!origin || !allowed.has(origin)) return { why: 'frameOrigin', secret, sites, frame: origin };
    }
    return undefined;
  }

  /** The frame holding the field and every frame above it, from Playwright's side (the page cannot fake these). */
  private async framesOf(page: Page, target: string): Promise<Frame[] | undefined> {
    let handle: ElementHandle | null = null;
    try {
      handle = await page.locator(`aria-ref=${target}`).elementHandle({ timeout: FIND_FIELD_MS });
      const frames: Frame[] = [];
      for (let frame = await handle.ownerFrame(); frame; frame = frame.parentFrame()) frames.push(frame);
      return frames.length ? frames : undefined;
    } catch {
      return undefined;
    } finally {
      await handle?.dispose().catch(() => undefined);
    }
  }
}

/**
 * Upstream types a secret into the focused element: key by key (`slowly`), or by focusing the field and then
 * inserting the text, a round trip later. In between, a frame of another site on the secret's page could take
 * the focus (a widget that calls focus() all the time got every key, both ways). So for the call, every frame of
 * an origin not among the secret's sites is taken out of the page's rendering from its parent's side
 * (`display: none` on its frame element, which the frame itself cannot reach: it is another origin's document):
 * nothing in an unrendered frame can hold the focus. `inert` and `visibility: hidden` were tried and do not keep
 * Chromium from focusing inside the frame. The person sees such frames vanish for the moment of typing. The
 * secret's own sites are the person's choice and are trusted like the field itself.
 * Returns what puts the frames back (only those this hid, with their own inline display).
 */
async function fenceOtherSites(page: Page, sites: ReadonlySet<string>): Promise<() => Promise<void>> {
  const fenced: { element: ElementHandle; display: string; priority: string }[] = [];
  const fencedFrames = new Set<Frame>();
  for (const frame of page.frames()) {
    if (frame === page.mainFrame() || frame.isDetached()) continue;
    const origin = originOf(frame.url());
    if (origin && sites.has(origin)) continue;
    // A frame inside a hidden one is hidden with it.
    if (ancestorsOf(frame).some(above => fencedFrames.has(above))) continue;
    fencedFrames.add(frame);
    const element = await frame.frameElement().catch(() => undefined);
    if (!element) continue;
    const before = await element
      .evaluate(el => {
        const style = (
          el as unknown as {
            style: {
              getPropertyValue(name: string): string;
              getPropertyPriority(name: string): string;
              setProperty(name: string, value: string, priority: string): void;
            };
          }
        ).style;
        const was = { display: style.getPropertyValue('display'), priority: style.getPropertyPriority('display') };
        style.setProperty('display', 'none', 'important');
        return was;
      })
      .catch(() => undefined);
    if (before) fenced.push({ element, ...before });
    else await element.dispose().catch(() => undefined);
  }
  return async () => {
    for (const { element, display, priority } of fenced) {
      await element
        .evaluate(
          (el, was) => {
            const style = (el as unknown as { style: { setProperty(name: string, value: string, priority: string): void; removeProperty(name: string): void } })
              .style;
            if (was.display) style.setProperty('display', was.display, was.priority);
            else style.removeProperty('display');
          },
          { display, priority },
        )
        .catch(() => undefined);
      await element.dispose().catch(() => undefined);
    }
  };
}

function ancestorsOf(frame: Frame): Frame[] {
  const above: Frame[] = [];
  for (let parent = frame.parentFrame(); parent && parent.parentFrame(); parent = parent.parentFrame()) above.push(parent);
  return above;
}
