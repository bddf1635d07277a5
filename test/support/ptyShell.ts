/**
 * A real interactive shell behind a pseudo-terminal, for tests of what a person pastes into one. Node has
 * no pty module, so a small Python driver (its standard `pty` module) holds the terminal: it waits for the
 * prompt, writes what a terminal would (a paste, bracketed or typed, then Enter), and hands back all the
 * shell wrote. Every process of the shell's session is killed at the end, whatever happened.
 */
import { spawn } from 'child_process';

/** The driver: reads its plan as JSON on stdin, writes `{"transcript": base64, "waits": [...] }` on stdout. */
const DRIVER = String.raw`
import base64, fcntl, json, os, pty, select, signal, struct, sys, termios, time
plan = json.loads(sys.stdin.read())
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(plan['argv'][0], plan['argv'], plan['env'])
# A window as a terminal has one: line editors lay out their lines by it.
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 50, 200, 0, 0))
os.set_blocking(fd, False)
prompt = plan['prompt'].encode()
seen = b''
gone = False

def pump(seconds, done):
    global seen, gone
    end = time.monotonic() + seconds
    while not gone and time.monotonic() < end:
        if done is not None and done():
            return True
        ready, _, _ = select.select([fd], [], [], 0.02)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b''
            if not chunk:
                gone = True
            seen += chunk
    return done is not None and done()

waits = []
for step in plan['steps']:
    if 'prompts' in step:
        waits.append(pump(plan['waitSeconds'], lambda: seen.count(prompt) >= step['prompts']))
    else:
        # Written as the shell takes it, reading its echo meanwhile: a blocked write would never read.
        data = base64.b64decode(step['send'])
        end = time.monotonic() + plan['waitSeconds']
        while data and not gone and time.monotonic() < end:
            _, writable, _ = select.select([], [fd], [], 0.02)
            if writable:
                try:
                    data = data[os.write(fd, data[:1024]):]
                except BlockingIOError:
                    pass
                except OSError:
                    gone = True
            pump(0.005, None)
pump(plan['endSeconds'], None)

# The shell, and anything it started in its session (curl in a job of its own), ends here.
def session_members():
    members = []
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                with open('/proc/%s/stat' % name) as stat:
                    fields = stat.read().rsplit(')', 1)[1].split()
                if int(fields[3]) == pid:
                    members.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return members
for member in session_members():
    try:
        os.kill(member, signal.SIGKILL)
    except OSError:
        pass
try:
    os.waitpid(pid, 0)
except OSError:
    pass
sys.stdout.write(json.dumps({'transcript': base64.b64encode(seen).decode(), 'waits': waits, 'exited': gone}))
`;

export interface ShellRun {
  /** All the shell wrote to its terminal (echo, prompts, errors), as text. */
  transcript: string;
  /** False when a prompt did not come back in time (the shell was left mid-command). */
  promptsCame: boolean;
  /** The shell ended by itself (after `exit`), rather than being killed. */
  exited: boolean;
}

export interface ShellPlan {
  argv: string[];
  env: Record<string, string>;
  /** The prompt the shell is given (PS1): the driver counts it to know the shell waits for input. */
  prompt: string;
  /** Commands typed (and entered) before the paste. */
  setup?: string[];
  paste: string;
  /** Wrap the paste in ESC [200~ ... ESC [201~, as a terminal does when the line editor asked for it. */
  bracketed: boolean;
}

/** Types the setup, pastes, presses Enter, then types `exit`; bounded by `waitSeconds` per prompt. */
export function pasteIntoShell(plan: ShellPlan, waitSeconds = 10): Promise<ShellRun> {
  const send = (text: string) => ({ send: Buffer.from(text, 'utf8').toString('base64') });
  const setup = plan.setup ?? [];
  const steps: object[] = [{ prompts: 1 }];
  setup.forEach((line, i) => steps.push(send(`${line}\r`), { prompts: i + 2 }));
  steps.push(send(plan.bracketed ? `\x1b[200~${plan.paste}\x1b[201~` : plan.paste), send('\r'), { prompts: setup.length + 2 }, send('exit\r'));
  const input = JSON.stringify({ argv: plan.argv, env: plan.env, prompt: plan.prompt, steps, waitSeconds, endSeconds: 5 });
  return new Promise((resolve, reject) => {
    const driver = spawn('python3', ['-c', DRIVER], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // The driver bounds itself; this bounds the driver.
    const guard = setTimeout(() => driver.kill('SIGKILL'), (waitSeconds * (setup.length + 2) + 15) * 1000);
    driver.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    driver.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    driver.on('error', error => {
      clearTimeout(guard);
      reject(error);
    });
    driver.on('close', code => {
      clearTimeout(guard);
      try {
        const result = JSON.parse(stdout) as { transcript: string; waits: boolean[]; exited: boolean };
        resolve({ transcript: Buffer.from(result.transcript, 'base64').toString('utf8'), promptsCame: result.waits.every(Boolean), exited: result.exited });
      } catch {
        reject(new Error(`the pty driver failed (exit ${code}): ${stderr.slice(-2000)}`));
      }
    });
    driver.stdin.end(input);
  });
}
