#!/usr/bin/env python3
"""tests/labs.py -- runs the labs of docs/labs/ and holds them to the code.

A lab (docs/labs/README.md, "How a lab is tested") is Markdown with three
kinds of live parts, all read from the file itself:

  commands   lines of ```sh blocks that start with ./build/gpusim or
             ./build/viz/gpusim-viz (or end a chain with `&& ./build/gpusim
             ...`) and end with a name, `# [div]`. `gpusim exec` is skipped
             without nvcc or the build's CUDA runtime. Every one
             runs (from the source tree). `gpusim run` and `gpusim occupancy`
             run with --json added (and once more as printed, when an output
             block or a says() needs the text); gpusim-viz --snapshot writes
             its PNG to a temporary folder (to the named path with
             --pictures). `# [name] exit=2` expects that exit status.
  checks     lines `- Check: `EXPR`` (one or more code spans): each EXPR is a
             Python expression over the named commands (helpers below) that
             must be true. They state the lab's claim with its tolerance.
  numbers    <!--=NAME-->VALUE<!--/--> : VALUE is the number NAME, defined in a
             block, usually under its paragraph, that Markdown does not show:
                 <!-- numbers
                 NAME = FMT: EXPR
                 -->
             EXPR formatted with FMT (a Python format spec: .2f, d, .0%).
             (<!--=FMT:EXPR-->VALUE<!--/--> inline works too.) The check
             fails when VALUE and the run differ by more than the rounding
             of VALUE.
  outputs    a line <!--out:NAME--> just before a ```text block: the block
             holds what command NAME prints, host timings left out;
             <!--out:NAME part=table,why,problems grep=REGEX--> keeps only those
             parts of a run report and, of them, the lines matching REGEX.

Without options every lab is checked; --update rewrites the numbers and
outputs in place (checks must still hold); --pictures also writes the
snapshots to their named paths (docs/labs/make_pictures.sh).

Helpers in expressions: for a `gpusim run` command R: R.cycles(v), R.us(v),
R.stat(v, key) (a --json stats key), R.stall(v, state), R.ratio(a, b)
(cycles of a / cycles of b), R.var(v) (the variant's JSON object), R.says(v,
text) (the text report's why-sentence of v, or its "every variant" line,
contains text, whitespace folded), R.text; for `gpusim occupancy` O: O.get(key), O.limit(resource); for `gpusim
sweep` W: W.rows (its JSON lines), W.row(variant, key=value...) (the run at
the point whose swept values include those), W.cycles(variant, ...),
W.stat(variant, key, ...);
for a snapshot S: S.panel(name) (the key=value pairs of its line, numbers
as numbers), S.warps() (one dict per warp line), S.masks() (the active masks of the
warps that show one, as hex text); any command C: C.text, C.data (its output
read as JSON); hw.ms(workload, variant), hw.ratio(workload, a, b)
(validate/results/h200.json and h200_labs.json, median milliseconds);
rec.compare(path).median (and .max, .within10, .within20, .pairs, .mape: the
summary of a committed `gpusim compare` output), rec.bench(path, case) (a
committed bench/compare.sh result's host instructions per warp instruction),
rec.rate(path, case) (its million warp instructions per CPU second);
min, max, abs, round,
sum, len, all, any.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

SCRATCH = 'labs-out/'  # where a lab's commands write their pictures (docs/labs/img/ with --pictures)
CMD_RE = re.compile(r'^(\./build/gpusim|\./build/viz/gpusim-viz)\s+(.*?)\s+#\s*\[(\w+)\](?:\s+exit=(\d+))?\s*$')
NUM_RE = re.compile(r'<!--=([^:>]*):(.*?)-->(.*?)<!--/-->|<!--=(\w+)-->(.*?)<!--/-->')
DEFS_RE = re.compile(r'^<!-- numbers\s*$(.*?)^-->', re.M | re.S)
DEF_RE = re.compile(r'^\s*(\w+)\s*=\s*([^:\s]*)\s*:\s*(.+?)\s*$')


def definitions(text):
    """The named numbers of a document: name -> (FMT, EXPR), from its
    <!-- numbers ... --> blocks, one `name = FMT: EXPR` a line."""
    defs = {}
    for block in DEFS_RE.findall(text):
        for l in block.strip('\n').split('\n'):
            m = DEF_RE.match(l)
            if l.strip() and not m:
                raise LabError('a numbers block line is not `name = FMT: EXPR`: %s' % l.strip())
            if m:
                defs[m.group(1)] = (m.group(2), m.group(3))
    return defs
OUT_RE = re.compile(r'^<!--out:(\w+)(?:\s+part=([\w,]+))?(?:\s+grep=(.*?))?-->\s*$')
CHECK_RE = re.compile(r'^\s*(?:[->]\s*)?Check:\s*(.*)$')
SPAN_RE = re.compile(r'`([^`]+)`')


class Skip(Exception):
    """A command could not run here (no gpusim-viz): its checks are skipped."""


class LabError(Exception):
    pass


def fold(s):
    return ' '.join(s.split())


class Command:
    def __init__(self, ctx, name, tool, argv, want_rc, where):
        self.ctx, self.name, self.tool, self.argv = ctx, name, tool, argv
        self.want_rc, self.where = want_rc, where
        self._text = None
        self.stdout = ''

    def shown(self):
        return ('./build/gpusim ' if self.tool == 'gpusim' else './build/viz/gpusim-viz ') + ' '.join(
            shlex.quote(a) for a in self.argv)

    def exe(self):
        if self.tool == 'gpusim' and self.argv[:1] == ['exec'] and not self.ctx.cuda:
            raise Skip('no CUDA toolkit (nvcc) or no gpusim CUDA runtime in this build')
        if self.tool == 'gpusim':
            return self.ctx.gpusim
        if not self.ctx.viz:
            raise Skip('gpusim-viz is not built')
        return self.ctx.viz

    def redirect(self, argv):
        """argv with its output files moved to the temporary folder: always
        the data files (--out, --trace, --dump), and the pictures
        (--snapshot, --roofline, --plot) unless --pictures asks for them."""
        argv = list(argv)
        self.moved = {}
        for i, a in enumerate(argv[:-1]):
            pic = a in ('--snapshot', '--roofline', '--plot')
            if pic and self.ctx.pictures and argv[i + 1].startswith(SCRATCH):
                # the labs' pictures: the reader's scratch folder, the docs' own here
                drawn = os.path.join(self.ctx.source, 'docs/labs/img', argv[i + 1][len(SCRATCH):])
                self.moved[drawn] = argv[i + 1]
                argv[i + 1] = drawn
                continue
            if (pic and not self.ctx.pictures) or a in ('--out', '--trace', '--dump'):
                tmp = os.path.join(self.ctx.tmp, '%s%s_%s' % (self.name, a.replace('-', '_'), os.path.basename(argv[i + 1])))
                self.moved[tmp] = argv[i + 1]
                argv[i + 1] = tmp
        return argv

    def call(self, argv):
        argv = self.redirect(argv)
        t0 = time.time()
        p = subprocess.run([self.exe()] + argv, cwd=self.ctx.source, capture_output=True, text=True)
        if p.returncode != self.want_rc and 'built without PLplot' in p.stderr and '--roofline' in argv:
            # a build without PLplot draws no roofline: the run without it
            i = argv.index('--roofline')
            argv = argv[:i] + argv[i + 2:]
            self.ctx.notes.add('no PLplot in this build: the roofline pictures are not drawn')
            p = subprocess.run([self.exe()] + argv, cwd=self.ctx.source, capture_output=True, text=True)
        for tmp, shown in self.moved.items():  # the output as the lab's command prints it
            p.stdout, p.stderr = p.stdout.replace(tmp, shown), p.stderr.replace(tmp, shown)
        t1 = time.time()
        if p.returncode != self.want_rc:
            raise LabError('%s: `%s` exited %d, not %d:\n%s' % (self.where, self.shown(), p.returncode,
                                                             self.want_rc, (p.stderr or p.stdout)[-2000:]))
        self.ctx.times.append((t1 - t0, self.shown() + (' --json' if '--json' in argv else '')))
        return p

    def run(self):
        self.text  # noqa: B018 -- every command runs, whatever it is

    @property
    def text(self):
        if self._text is None:
            p = self.call(self.argv)
            lines = [l for l in (p.stdout + p.stderr).splitlines() if not re.match(r'^simulated \d+ warp instructions in ', l)]
            self._text = '\n'.join(lines).rstrip() + '\n'
        return self._text

    @property
    def data(self):
        return json.loads(self.text)


class RunCmd(Command):
    def run(self):
        if self.want_rc != 0:
            self.text  # noqa: B018 -- the status is what the lab shows
            return
        p = self.call(self.argv + ['--json'])
        self.json = json.loads(p.stdout)
        self.v = {x['name']: x for x in self.json['variants']}
        bad = [k for k, x in self.v.items() if x['check'] != 'pass']
        if bad:
            raise LabError('%s: `%s`: variants did not pass their checks: %s' % (self.where, self.shown(), ', '.join(bad)))

    def var(self, v):
        return self.v[v]

    def cycles(self, v):
        return self.v[v]['cycles']

    def us(self, v):
        return self.v[v]['time_us']

    def stat(self, v, key):
        return self.v[v]['stats'][key]

    def stall(self, v, state):
        return self.v[v]['stats']['stall_reasons'][state]

    def ratio(self, a, b):
        return self.cycles(a) / self.cycles(b)

    def says(self, v, words):
        text = self.text.split('\nwhy:\n', 1)[-1]
        m = re.search(r'^  ' + re.escape(v) + r':\s+(.*?)(?=^  \S|\Z)', text, re.S | re.M)
        # the clauses every variant shares are said once, under the others
        common = re.search(r'^  every variant:\s+(.*?)(?=^  \S|^\S|\Z)', text, re.S | re.M)
        return m is not None and (fold(words) in fold(m.group(1)) or
                                  (common is not None and fold(words) in fold(common.group(1))))


class OccCmd(Command):
    def run(self):
        if self.want_rc != 0:
            self.text  # noqa: B018
            return
        self.json = json.loads(self.call(self.argv + ['--json']).stdout)

    def get(self, key):
        return self.json[key]

    def limit(self, resource):
        return self.json['limits'][resource]


class SweepCmd(Command):
    """gpusim sweep: its JSON lines (--out, in the temporary folder)."""
    def run(self):
        argv = list(self.argv)
        if '--out' not in argv:
            argv += ['--out', 'sweep.jsonl']
        p = self.call(argv)
        self._text = '\n'.join(l for l in (p.stdout + p.stderr).splitlines() if not l.startswith('sweep: ') or 'error' in l)
        out = [t for t, shown in self.moved.items() if shown == argv[argv.index('--out') + 1]]
        self.rows = [json.loads(l) for l in open(out[0]) if l.strip()]
        bad = ['%s at point %d' % (r['variant'], r['point']) for r in self.rows if r['check'] != 'pass']
        if bad:
            raise LabError('%s: `%s`: runs did not pass their checks: %s' % (self.where, self.shown(), ', '.join(bad)))

    def row(self, variant, **at):
        """The run of `variant` at the point whose swept values include `at`."""
        for r in self.rows:
            vals = dict(r.get('param') or {})
            vals.update(r.get('set') or {})
            vals['gpu'] = r.get('gpu')
            if r['variant'] == variant and all(vals.get(k) == v for k, v in at.items()):
                return r
        raise KeyError('no run of %s at %s' % (variant, at))

    def cycles(self, variant, **at):
        return self.row(variant, **at)['cycles']

    def stat(self, variant, key, **at):
        return self.row(variant, **at)['stats'][key]


def kv(s):
    out = {}
    for k, v in re.findall(r'(\w+)=(\S+)', s):
        if k in ('active', 'exec'):  # lane masks, in hex
            out[k] = v
            continue
        try:
            out[k] = int(v)
        except ValueError:
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
    return out


class VizCmd(Command):
    def run(self):
        try:
            p = self.call(self.argv)
        except Skip:
            self.stdout = None
            return
        self.stdout = p.stdout
        self._text = self.stdout

    def _need(self):
        if self.stdout is None:
            raise Skip('gpusim-viz is not built')

    @property
    def text(self):
        self._need()
        return self._text

    def panel(self, name):
        self._need()
        for line in self.stdout.splitlines():
            if line.startswith(name + ':'):
                return kv(line[len(name) + 1:])
        raise KeyError('no %s line in the snapshot' % name)

    def warps(self):
        self._need()
        return [kv(l.split(':', 1)[1]) for l in self.stdout.splitlines() if re.match(r'^warp \d+:', l)]

    def masks(self):
        return [w['active'] for w in self.warps() if 'active' in w]


class Hardware:
    """The H200 measurements: validate/results/h200.json (the workloads'
    twins) and h200_labs.json (the twins of workloads/labs/)."""
    def __init__(self, paths):
        self.d = {}
        for path in paths:
            if os.path.exists(path):
                for r in json.load(open(path))['variants']:
                    self.d[(r['workload'], r['variant'])] = r

    def ms(self, workload, variant):
        return self.d[(workload, variant)]['ms']

    def ratio(self, workload, a, b):
        return self.ms(workload, a) / self.ms(workload, b)


class Records:
    """Figures of committed records, for documents that quote them:
    compare(path) the summary of a `gpusim compare` output (the expected
    files CI holds to the run: median, max, within10, within20, pairs,
    mape), bench(path, case) a `bench/compare.sh` result's callgrind host
    instructions per warp instruction of the new tree, rate(path, case)
    its million warp instructions per CPU second."""
    def __init__(self, source):
        self.source = source

    def compare(self, path):
        text = open(os.path.join(self.source, path), encoding='utf-8').read()
        m = re.search(r'summary: (\d+) ratio pairs.*?median \|ratio error\| ([\d.]+)%, max ([\d.]+)%.*?'
                      r'within 10%: (\d+) of \d+, within 20%: (\d+) of \d+.*?\(MAPE\): ([\d.]+)%', text, re.S)
        if not m:
            raise LabError('%s: no compare summary' % path)
        k = ('pairs', 'median', 'max', 'within10', 'within20', 'mape')
        return type('Summary', (), dict(zip(k, [float(x) for x in m.groups()])))

    def _second_column(self, path, case, table, what):
        """The second number of case's row in a bench/compare.sh result:
        table 0 the rates (M warp instructions per CPU second), 1 the
        callgrind one (host instructions per warp instruction); the new
        tree's figure."""
        text = open(os.path.join(self.source, path), encoding='utf-8').read()
        if table:
            text = text[text.index('callgrind'):]
        m = re.search(r'^' + re.escape(case) + r'\s+([\d.]+)\s+([\d.]+)\s', text, re.M)
        if not m:
            raise LabError('%s: no %s of %s' % (path, what, case))
        return float(m.group(2))

    def rate(self, path, case):
        return self._second_column(path, case, 0, 'rate')

    def bench(self, path, case):
        return int(self._second_column(path, case, 1, 'callgrind figure'))


class Ctx:
    pass


def parse(path, ctx):
    """The lab file's commands (name -> Command), in order."""
    cmds = {}
    fence = None
    held, held_no = '', 0  # a command continued over lines with a trailing backslash
    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        s = line.rstrip('\n')
        if fence == 'sh' and (held or s.endswith('\\')):
            if s.endswith('\\'):
                held, held_no = held + s[:-1].rstrip() + ' ', held_no or no
                continue
            s, no, held, held_no = held + s.strip(), held_no, '', 0
        if s.startswith('```'):
            fence = None if fence is not None else s[3:].strip()
            continue
        if fence != 'sh':
            continue
        if not s.startswith('./build/'):
            # the last step of a chain (`... && ./build/gpusim run X  # [name]`)
            k = s.find('&& ./build/')
            if k < 0 or not re.search(r'#\s*\[\w+\]', s):
                continue
            s = s[k + 3:]
        m = CMD_RE.match(s)
        where = '%s:%d' % (os.path.relpath(path, ctx.source), no)
        if not m:
            raise LabError('%s: a command without a name (end it with  # [name]): %s' % (where, s))
        tool = 'gpusim' if m.group(1).endswith('/gpusim') else 'viz'
        argv = shlex.split(m.group(2))
        name = m.group(3)
        if name in cmds:
            raise LabError('%s: the name [%s] is taken' % (where, name))
        cls = VizCmd if tool == 'viz' else {'run': RunCmd, 'occupancy': OccCmd, 'sweep': SweepCmd}.get(argv[0], Command)
        cmds[name] = cls(ctx, name, tool, argv, int(m.group(4) or 0), where)
    return cmds


def env_for(cmds, ctx):
    env = {'hw': ctx.hw, 'rec': ctx.records, 'math': math, 'min': min, 'max': max, 'abs': abs, 'round': round, 'sum': sum,
           'len': len, 'all': all, 'any': any, 'sorted': sorted}
    env.update(cmds)
    return env


def parse_number(s):
    t = s.strip().replace(',', '').replace('\u2212', '-')
    pct = t.endswith('%')
    t = t.rstrip('%').strip()
    digits = len(t.split('.')[1]) if '.' in t else 0
    return float(t), digits, pct


def close(md, value, fmt):
    """md (the Markdown's text) is value as fmt prints it, within rounding."""
    try:
        got, digits, pct = parse_number(md)
    except ValueError:
        return md == format(value, fmt)
    v = value * 100 if pct and fmt.endswith('%') else value
    return abs(got - v) <= 0.5 * 10 ** -digits * (1 + 1e-9) + 1e-12 * abs(v)


def parts(lines, names):
    """The parts of a `gpusim run` text report: 'table' (from the header row
    to the blank line after it), 'why' (the explanations) and 'problems'
    (faults, budgets and deadlocks)."""
    starts = {'table': lambda l: l.startswith('variant '), 'why': lambda l: l == 'why:',
              'problems': lambda l: l == 'problems:'}
    out = []
    for name in names:
        k = next((i for i, l in enumerate(lines) if starts[name](l)), None)
        if k is None:
            continue
        e = next((i for i in range(k, len(lines)) if not lines[i].strip()), len(lines))
        if out:
            out.append('')
        out.extend(lines[k:e])
    return out


def lab_file(path, ctx, update, report):
    rel = os.path.relpath(path, ctx.source)
    cmds = parse(path, ctx)
    src = open(path, encoding='utf-8').read()

    def start(c):
        try:
            c.run()
            # the text report too, where the lab shows or reads it
            if re.search(r'<!--out:%s\b|\b%s\.(says|text)\b' % (c.name, c.name), src):
                c.text  # noqa: B018
        except (Skip, LabError) as e:
            return e
        return None
    with concurrent.futures.ThreadPoolExecutor(max_workers=ctx.jobs) as pool:
        for err in pool.map(start, cmds.values()):
            if isinstance(err, LabError):
                raise err
    env = env_for(cmds, ctx)
    try:
        defs = definitions(src)
    except LabError as e:
        raise LabError('%s: %s' % (rel, e))
    lines = src.split('\n')
    out = []
    i = 0
    while i < len(lines):
        line, no = lines[i], i + 1
        where = '%s:%d' % (rel, no)
        if '<!--=' in line and line.count('<!--=') != len(NUM_RE.findall(line)):
            report.fail('%s: a number marker that does not close on its line (<!--=FMT:EXPR-->VALUE<!--/-->)' % where)
        if line.startswith('<!--out:') and not (OUT_RE.match(line) and i + 1 < len(lines) and lines[i + 1].startswith('```')):
            report.fail('%s: an output marker not followed by a ``` block, or malformed' % where)
        m = CHECK_RE.match(line)
        if m and not SPAN_RE.findall(m.group(1)):
            report.fail('%s: a Check: line without a `claim`' % where)
        if m:
            for expr in SPAN_RE.findall(m.group(1)):
                try:
                    ok = eval(expr, env)  # the lab's own claim
                except Skip as e:
                    report.skip('%s: `%s` (%s)' % (where, expr, e))
                    continue
                except Exception as e:  # a claim that cannot be evaluated is a failed claim
                    report.fail('%s: `%s` raised %r' % (where, expr, e))
                    continue
                if ok is True:
                    report.ok()
                else:
                    report.fail('%s: claim does not hold: `%s`' % (where, expr))

        def number(mm):
            if mm.group(4):  # a named number: its definition is in a numbers block
                if mm.group(4) not in defs:
                    report.fail('%s: the number %s has no definition in a <!-- numbers --> block' % (where, mm.group(4)))
                    return mm.group(0)
                (fmt, expr), md = defs[mm.group(4)], mm.group(5)
            else:
                fmt, expr, md = mm.group(1), mm.group(2), mm.group(3)
            try:
                value = eval(expr, env)
            except Skip as e:
                report.skip('%s: number %s (%s)' % (where, expr, e))
                return mm.group(0)
            except Exception as e:
                report.fail('%s: number `%s` raised %r' % (where, expr, e))
                return mm.group(0)
            new = format(value, fmt)
            if update:
                head = mm.group(0)[:mm.group(0).index('-->') + 3]
                return '%s%s<!--/-->' % (head, new)
            if close(md, value, fmt):
                report.ok()
            else:
                report.fail('%s: the lab says %s, the run gives %s (`%s`)' % (where, md, new, expr))
            return mm.group(0)
        line = NUM_RE.sub(number, line)
        out.append(line)
        m = OUT_RE.match(line)
        if m and i + 1 < len(lines) and lines[i + 1].startswith('```'):
            j = i + 2
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            old = '\n'.join(lines[i + 2:j])
            name, part, grep = m.group(1), m.group(2), m.group(3)
            if name not in cmds:
                report.fail('%s: output block of an unknown command [%s]' % (where, name))
                i += 1
                continue
            try:
                text = cmds[name].text
            except Skip as e:
                report.skip('%s: output of [%s] (%s)' % (where, name, e))
                out.extend(lines[i + 1:j + 1])
                i = j + 1
                continue
            except LabError as e:
                report.fail(str(e))
                out.extend(lines[i + 1:j + 1])
                i = j + 1
                continue
            got = [l.rstrip() for l in text.rstrip('\n').split('\n')]
            if part:
                got = parts(got, part.split(','))
            if grep:
                got = [l for l in got if re.search(grep, l)]
            new = '\n'.join(got)
            if update:
                out.append(lines[i + 1])
                out.extend(got)
                out.append(lines[j])
            else:
                if new == old:
                    report.ok()
                else:
                    report.fail('%s: the output of [%s] differs from the lab\'s copy' % (where, name))
                out.extend(lines[i + 1:j + 1])
            i = j + 1
            continue
        i += 1
    if update:
        text = '\n'.join(out)
        if text != '\n'.join(lines):
            open(path, 'w', encoding='utf-8').write(text)
            print('updated %s' % rel)


class Report:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def ok(self):
        self.passed += 1

    def fail(self, msg):
        self.failed += 1
        print('FAIL: ' + msg)

    def skip(self, msg):
        self.skipped += 1
        print('skip: ' + msg)


def main():
    ap = argparse.ArgumentParser(description='Run the labs of docs/labs/ and check their claims and numbers.')
    ap.add_argument('--gpusim', required=True)
    ap.add_argument('--viz', default='')
    ap.add_argument('--source', default='.')
    ap.add_argument('--update', action='store_true', help='rewrite the numbers and outputs of the labs')
    ap.add_argument('--pictures', action='store_true', help='also write the snapshots to their named paths')
    ap.add_argument('--times', action='store_true', help='print how long each command took, longest first')
    ap.add_argument('--jobs', type=int, default=2, help='commands run at once (default 2)')
    ap.add_argument('files', nargs='*', help='lab files (default: docs/labs/[0-9]*.md)')
    a = ap.parse_args()
    ctx = Ctx()
    ctx.source = os.path.abspath(a.source)
    ctx.gpusim = os.path.abspath(a.gpusim)
    ctx.viz = os.path.abspath(a.viz) if a.viz and os.path.exists(a.viz) else ''
    ctx.pictures = a.pictures
    ctx.jobs = max(1, a.jobs)
    ctx.times = []
    ctx.notes = set()
    ctx.records = Records(ctx.source)
    nvcc = shutil.which('nvcc') or next((p for p in (os.path.join(os.environ.get('CUDA_HOME', '/nonexistent'), 'bin/nvcc'),
                                                     '/usr/local/cuda/bin/nvcc') if os.access(p, os.X_OK)), None)
    runtime = os.path.join(os.path.dirname(ctx.gpusim), 'cudart', 'libcudart.so.13')
    ctx.cuda = bool(nvcc) and os.path.exists(runtime)
    ctx.hw = Hardware([os.path.join(ctx.source, 'validate/results', f) for f in ('h200.json', 'h200_labs.json')])
    files = a.files or sorted(os.path.join(ctx.source, 'docs/labs', f) for f in os.listdir(os.path.join(ctx.source, 'docs/labs'))
                              if re.match(r'^\d.*\.md$', f))
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        ctx.tmp = tmp
        for f in files:
            try:
                lab_file(os.path.abspath(f), ctx, a.update, report)
            except LabError as e:
                report.fail(str(e))
    if a.times:
        for t, c in sorted(ctx.times, reverse=True):
            print('%6.2f s  %s' % (t, c))
    for note in sorted(ctx.notes):
        print('note: ' + note)
    print('%d passed, %d failed, %d skipped' % (report.passed, report.failed, report.skipped))
    if report.failed and not a.update:
        named = ' '.join(os.path.relpath(os.path.abspath(f), ctx.source) for f in a.files)
        print('A document no longer matches the simulator. If the model changed on purpose and every claim '
              '(Check:) still holds, rewrite the numbers with  bash tests/labs.sh build/gpusim . build/viz/gpusim-viz '
              '--update %s  and review the diff of %s.' % (named, named or 'docs/labs/'))
    return 1 if report.failed else 0


if __name__ == '__main__':
    sys.exit(main())
