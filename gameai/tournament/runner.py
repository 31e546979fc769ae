"""Run a tournament: schedule, play in parallel (joblib or Dask), record, report.

Backends
--------
* ``joblib`` (default): ``--jobs N`` worker processes (loky) on this machine; results are
  consumed as they finish (``return_as="generator_unordered"``).
* ``dask``: a Dask distributed cluster; ``scheduler="tcp://host:port"`` joins an existing
  cluster (every worker needs gameai installed), otherwise a ``LocalCluster`` with ``jobs``
  single-threaded worker processes is started and shut down afterwards.

Every game is a pure function of its task, and records are sorted by game id, so the same
seed gives the same games on every backend and worker count (wall-clock columns aside;
time-limited searches are the exception, since how far a search gets depends on load).

Before the first game a worker checks that it can make every player
(:func:`~gameai.tournament.play.check_players`; on Dask every worker does): a player it
cannot make (a module it cannot import, say) stops the run with a ``SpecError`` before
the manifest or any record is written, instead of losing every game by forfeit. Names
registered at run time in this process travel with every game
(:func:`gameai.registry.registrations`).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, Literal

from ..errors import RecordError, SpecError
from ..manifest import write_manifest
from ..records import write_tournament_records
from ..registry import Registration, registrations
from ..spec import Depth, Nodes, Range, Seconds, check_fields
from .audit import check_foreign
from .play import check_players, play_game
from .records import RecordStore, folder_errors
from .schedule import GameTask, build_schedule, read_openings, unique_names
from .standings import forfeited_players, pairing_rows, player_rows, render, write_csv
from .stats import SPRT

BACKENDS = ("joblib", "dask")
#: seconds to wait for a Dask scheduler given by address before giving up
CONNECT_TIMEOUT = 5.0
_SCHEDULER = re.compile(r"^(?:(?:tcp|tls|ws|wss|ucx)://)?"
                        r"(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_][A-Za-z0-9_.-]*):(\d{1,5})$")


@dataclass
class TournamentConfig:
    """What determines the games (and so the records); the manifest stores it verbatim."""

    game: str
    players: list[str]
    games: Annotated[int, Range(1, 10 ** 6)] = 2
    seed: int = 0
    format: Literal["roundrobin", "gauntlet"] = "roundrobin"
    opening_plies: Annotated[int, Range(0, 10 ** 4)] = 2
    openings_file: str | None = None
    depth: Depth | None = None
    nodes: Nodes | None = None
    time: Seconds | None = None
    max_plies: Annotated[int, Range(1, 10 ** 6)] | None = 400
    sprt: str | None = None  # "elo0,elo1[,alpha,beta]"; only for two-player matches
    opening_balance: float | None = None  # redraw random openings with |eval| above this
    names: list[str] | None = None  # short names for the first players (--name), in order

    def __post_init__(self) -> None:
        check_fields(self, "tournament")

    def limits(self) -> dict[str, Any] | None:
        d = {k: v for k, v in (("depth", self.depth), ("nodes", self.nodes), ("time", self.time))
             if v is not None}
        return d or None

    def fingerprint(self) -> str:
        """Hash of everything that shapes the game list (not jobs/backend/progress)."""
        fields = asdict(self)
        if fields["names"] is None:   # folders made before names existed resume unchanged
            del fields["names"]
        text = json.dumps(fields, sort_keys=True)
        if self.openings_file:
            try:
                text += Path(self.openings_file).read_text()
            except OSError:
                pass
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class TournamentResult:
    out: Path
    games: list[dict[str, Any]]
    played: int
    skipped: int
    stopped_by_sprt: str | None = None
    pairings: list[dict[str, Any]] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)
    #: players who forfeited every game they played, with the first forfeit's reason
    forfeited: dict[str, str] = field(default_factory=dict)


def make_tasks(cfg: TournamentConfig) -> list[GameTask]:
    openings = read_openings(cfg.openings_file, cfg.game) if cfg.openings_file else None
    return build_schedule(cfg.game, cfg.players, cfg.games, cfg.seed, cfg.format,
                          cfg.opening_plies, openings, cfg.limits(), cfg.max_plies,
                          cfg.opening_balance, cfg.names)


def _joblib_results(tasks: list[GameTask], jobs: int,
                    regs: tuple[Registration, ...] = ()) -> Iterator[dict[str, Any]]:
    if jobs == 1:  # in-process: no worker start-up cost, easy to debug
        for t in tasks:
            yield play_game(t)
        return
    import warnings

    from joblib import Parallel, delayed
    # an SPRT stop abandons queued games on purpose; joblib warns about it (even from GC)
    warnings.filterwarnings("ignore", message=r".*tasks .*(still being processed|not used)",
                            category=UserWarning)
    gen = Parallel(n_jobs=jobs, return_as="generator_unordered")(
        delayed(play_game)(t, regs) for t in tasks)
    try:
        yield from gen
    finally:
        close = getattr(gen, "close", None)
        if close:
            close()  # abort pending tasks on early stop (SPRT) or error


def _check_joblib(game: str, specs: list[str], jobs: int,
                  regs: tuple[Registration, ...]) -> list[str]:
    """:func:`check_players` in-process (one job), or once per worker of the pool that
    the games then reuse (each check also starts its worker's watch of this process)."""
    if jobs == 1:
        return check_players(game, specs)
    from joblib import Parallel, delayed
    _check_travel(regs)
    found = Parallel(n_jobs=jobs)(delayed(check_players)(game, specs, regs, os.getpid())
                                  for _ in range(jobs))
    return list(dict.fromkeys(p for problems in found for p in problems))


def _check_travel(regs: tuple[Registration, ...]) -> None:
    """A registration that cannot be pickled for the workers is named in a SpecError."""
    import cloudpickle  # the pickler of loky and Dask (a Dask dependency)
    for reg in regs:
        try:
            cloudpickle.dumps(reg)
        except Exception as exc:
            raise SpecError(f"{reg[0]} {reg[1]!r}, registered in this process, cannot be sent "
                            f"to worker processes ({type(exc).__name__}: {exc}); register a "
                            "'module:attr' string instead, or use jobs=1") from None


def _refuse(problems: list[str], game: str, where: str) -> None:
    """The run's error when a player cannot play (see :func:`check_players`)."""
    if problems:
        raise SpecError(f"no game was played: not every player can play {game} in {where}: "
                        + "; ".join(problems))


def check_scheduler(address: str) -> None:
    """Refuse a Dask scheduler address that is not ``[tcp://]host:port`` before anything starts."""
    m = _SCHEDULER.match(address)
    if not m or not 1 <= int(m.group(1)) <= 65535:
        raise SpecError(f"scheduler {address!r}: not a Dask scheduler address; expected "
                        "tcp://host:port (e.g. tcp://127.0.0.1:8786)")


class _Dask:
    """A Dask client: joined to ``scheduler`` (within CONNECT_TIMEOUT seconds), or to a
    local cluster of ``jobs`` single-threaded worker processes started for the run."""

    def __init__(self, scheduler: str | None, jobs: int) -> None:
        from distributed import Client, LocalCluster
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise SpecError(f"scheduler {scheduler}: cannot connect within "
                                f"{CONNECT_TIMEOUT:g} s ({exc}); is a Dask scheduler running "
                                "there?") from None
        else:
            self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)

    def check(self, game: str, specs: list[str], regs: tuple[Registration, ...]) -> list[str]:
        """:func:`check_players` on every worker of the cluster (they may differ)."""
        found = self.client.run(check_players, game, specs, regs)
        return [f"worker {w}: {p}" if len(found) > 1 else p
                for w, problems in sorted(found.items()) for p in problems]

    def results(self, tasks: list[GameTask],
                regs: tuple[Registration, ...] = ()) -> Iterator[dict[str, Any]]:
        from distributed import as_completed
        futures = self.client.map(play_game, tasks, registrations=regs, pure=False)
        try:
            for fut in as_completed(futures):
                yield fut.result()
        finally:
            self.client.cancel(futures)

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


class _Progress:
    """tqdm bar with games done, the first player's W/D/L so far, and tqdm's ETA."""

    def __init__(self, total: int, done: int, name: str, enabled: bool) -> None:
        self.name = name
        self.wdl = [0, 0, 0]
        self.bar = None
        if enabled:
            from tqdm import tqdm
            self.bar = tqdm(total=total, initial=done, unit="game", desc="tournament",
                            file=sys.stderr, dynamic_ncols=True)

    def count(self, game: dict[str, Any]) -> None:
        for side in (0, 1):
            if game[f"player{side}"] == self.name:
                s = game["score0"] if side == 0 else 1 - game["score0"]
                self.wdl[0 if s == 1 else 1 if s == 0.5 else 2] += 1

    def update(self, game: dict[str, Any]) -> None:
        self.count(game)
        if self.bar is not None:
            w, d, l_ = self.wdl
            self.bar.set_postfix_str(f"{self.name[:24]} W/D/L {w}/{d}/{l_}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _SprtWatch:
    """SPRT over games taken in game-id order, one at a time.

    Results arrive in whatever order the workers finish; judging only the contiguous
    prefix of game ids makes the stopping game (and so the recorded match) the same on
    every backend and worker count. The LLR uses complete colour-swapped pairs
    (pentanomial) once there is one, W/D/L before that, as the pairings table does.
    """

    def __init__(self, sprt: SPRT, first: str) -> None:
        self.sprt, self.first = sprt, first
        self.next_id = 0
        self.wdl = [0, 0, 0]
        self.open_pairs: dict[int, float] = {}
        self.penta = [0] * 5

    def advance(self, games: dict[int, dict[str, Any]]) -> tuple[str, int] | None:
        """Consume recorded games in id order; return (decision, games used) once decided."""
        while self.next_id in games:
            g = games[self.next_id]
            self.next_id += 1
            s = float(g["score0"]) if g["player0"] == self.first else 1.0 - float(g["score0"])
            self.wdl[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
            pair = int(g["pair"])
            if pair in self.open_pairs:
                self.penta[int(round(2 * (self.open_pairs.pop(pair) + s)))] += 1
            else:
                self.open_pairs[pair] = s
            llr = self.sprt.llr_pentanomial(self.penta) if sum(self.penta) else \
                self.sprt.llr_trinomial(*self.wdl)
            decision = self.sprt.decide(llr)
            if decision:
                return decision, self.next_id
        return None


def run_tournament(cfg: TournamentConfig, out: str | Path, jobs: int | None = None,
                   backend: str = "joblib", scheduler: str | None = None,
                   progress: bool = True, log: Callable[[str], None] | None = print,
                   flush_every: float = 2.0) -> TournamentResult:
    """Play every game of ``cfg`` not yet recorded in ``out`` and write the reports."""
    if backend not in BACKENDS:
        raise SpecError(f"backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if jobs < 1:
        raise SpecError(f"jobs (parallel workers) must be at least 1, got {jobs}")
    try:
        sprt = SPRT.parse(cfg.sprt) if cfg.sprt else None
    except ValueError as exc:
        raise SpecError(str(exc)) from None
    if sprt is not None and len(cfg.players) != 2:
        raise SpecError(f"sprt needs exactly two players, got {len(cfg.players)}")
    if scheduler is not None:
        if backend != "dask":
            raise SpecError(f"scheduler {scheduler!r} is for backend dask (backend is {backend})")
        check_scheduler(scheduler)
    out = Path(out)
    tasks = make_tasks(cfg)  # validates specs' games/openings before touching the folder
    order = unique_names(cfg.players, cfg.names)
    fp = cfg.fingerprint()
    man_path = out / "manifest.json"
    had_manifest = man_path.exists()
    if had_manifest:
        try:
            old = json.loads(man_path.read_text())
        except (OSError, ValueError) as exc:
            raise RecordError(f"{man_path}: unreadable manifest: {exc}") from None
        if not isinstance(old, dict):
            raise RecordError(f"{man_path}: unreadable manifest: not a JSON object")
        if old.get("fingerprint") != fp:
            raise RecordError(f"{out} holds a different tournament (config differs: "
                              f"{_diff(old.get('config', {}), asdict(cfg))}); use another output folder")
    store = RecordStore(out, flush_every=flush_every)
    dask = None
    try:
        check_foreign(store, tasks, out)  # a folder without its manifest passes only so
        done = store.done_ids()
        todo = [t for t in tasks if t.game_id not in done]
        run_info = {"jobs": jobs, "backend": backend, "scheduler": scheduler}
        watch = _SprtWatch(sprt, order[0]) if sprt is not None else None
        hit = watch.advance(store.games) if watch is not None else None
        stopped = hit[0] if hit else None
        regs = registrations()
        if backend == "dask" and todo and stopped is None:
            dask = _Dask(scheduler, min(jobs, len(todo)))  # fails before anything is written
        if todo and stopped is None:   # every player can be made where the games run
            specs = sorted({s for t in todo for s in t.players})
            workers = min(jobs, len(todo))
            if dask is not None:
                _check_travel(regs)
                _refuse(dask.check(cfg.game, specs, regs), cfg.game, "a Dask worker")
            else:
                _refuse(_check_joblib(cfg.game, specs, workers, regs), cfg.game,
                        "a worker process" if workers > 1 else "this process")
        with folder_errors(out, "write the manifest"):
            write_manifest(man_path, asdict(cfg), cfg.seed, fingerprint=fp, status="running",
                           games_scheduled=len(tasks), run=run_info)
        store.prepare()
        if hit:
            store.discard_from(hit[1])
        if log and done:
            log(f"resuming: {len(done)} of {len(tasks)} games already recorded in {out}"
                + ("" if had_manifest else " (its manifest was missing; they match this schedule)"))
        for note in store.notes if log else ():
            log(f"  {note}")
        bar = _Progress(len(tasks), len(tasks) - len(todo), order[0], progress)
        for g in store.games_rows():
            bar.count(g)
        played = 0
        if todo and stopped is None:
            workers = min(jobs, len(todo))
            if workers > 1 and not scheduler:  # local pool workers stop when we die
                todo = [replace(t, watch_pid=os.getpid()) for t in todo]
            results = _joblib_results(todo, workers, regs) if dask is None else \
                dask.results(todo, regs)
            try:
                for rec in results:
                    store.add(rec)
                    played += 1
                    bar.update(rec["game"])
                    if watch is not None:
                        hit = watch.advance(store.games)
                        if hit:
                            stopped = hit[0]
                            store.discard_from(hit[1])  # games after the stopping one
                            break
            except BaseException:
                _wind_down(results, store, bar, failing=True)
                raise
            _wind_down(results, store, bar, failing=False)
        else:
            store.flush()
            bar.close()
        games = store.games_rows()
        prow = pairing_rows(games, sprt, order)
        plrow = player_rows(games)
        with folder_errors(out, "write the reports"):
            write_tournament_records(out / "games", cfg.game, games, store.moves)  # PGN / PSQ
            write_csv(out / "standings.csv", plrow)
            write_csv(out / "pairings.csv", prow)
            status = "finished" if len(games) == len(tasks) else f"stopped-by-sprt-{stopped}" if stopped else "incomplete"
            write_manifest(man_path, asdict(cfg), cfg.seed, fingerprint=fp, status=status,
                           games_scheduled=len(tasks), games_recorded=len(games), run=run_info,
                           sprt_decision=stopped, files=["games.parquet", "moves.parquet",
                                                         "journal.jsonl", "standings.csv", "pairings.csv"])
    finally:
        if dask is not None:
            dask.close()
        store.close()  # release the folder lock even on errors
    forfeited = forfeited_players(games)
    if log:
        log(render(games, sprt, order))
        if stopped:
            log(f"SPRT stopped the match: {stopped} accepted")
        for name, why in forfeited.items():
            log(f"{name} forfeited every game it played; the first: {why}")
    return TournamentResult(out, games, played, len(tasks) - len(todo), stopped, prow, plrow,
                            forfeited)


def _wind_down(results, store: RecordStore, bar: "_Progress", failing: bool) -> None:
    """Stop the workers, write the tables and close the bar; while another error is on its
    way out, a failing table write must not hide it (the journal already holds the games)."""
    close = getattr(results, "close", None)
    if close:
        close()
    try:
        store.flush()
    except RecordError:
        if not failing:
            raise
    finally:
        bar.close()


def _diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return ", ".join(f"{k}: {old.get(k)!r} -> {new.get(k)!r}" for k in keys) or "openings file"
