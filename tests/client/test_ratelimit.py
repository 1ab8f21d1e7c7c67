"""Client-side rate limiting: the token bucket alone, then against the emulator's real limits.

The unit tests inject a fake clock and sleep, so they run in no time and see
every wait exactly. The integration tests start an emulator with
``rate_limit_scale = 1`` (the contract's 10 requests per second per key, burst
20) and count 429 answers with a recording transport.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from conftest import KEYS, base_config
from dialkit import Client
from dialkit.client._http._ratelimit import (
    MIN_RATE_SHARE,
    RECOVERY_SECONDS,
    SAFETY_TOKENS,
    TokenBucket,
)
from dialkit.contract import RATE_LIMIT_PER_KEY, RateLimit
from dialkit.errors import RateLimitError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport

LIMIT = RateLimit(rate=10.0, burst=20)
BURST = int(LIMIT.burst - SAFETY_TOKENS)
"""Requests the bucket lets through at once: the burst less the token held back."""


class FakeTime:
    """A clock that moves only when told to, or when ``sleep`` is called."""

    def __init__(self, *, sleep_advances: bool = True) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []
        self._advance = sleep_advances
        self._lock = threading.Lock()

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            if self._advance:
                self.now += seconds

    def bucket(self, limit: RateLimit = LIMIT) -> TokenBucket:
        return TokenBucket(limit, clock=self.clock, sleep=self.sleep)


def drain(bucket: TokenBucket, fake: FakeTime, count: int) -> float:
    """Acquire ``count`` tokens one after the other; the fake time that took."""
    started = fake.now
    for _ in range(count):
        bucket.acquire()
    return fake.now - started


# The bucket with a fake clock. --------------------------------------------------------------------

def test_burst_passes_at_once_then_ten_per_second() -> None:
    fake = FakeTime()
    bucket = fake.bucket()
    assert drain(bucket, fake, BURST) == 0 and fake.sleeps == []
    assert drain(bucket, fake, 50) == pytest.approx(5.0)
    assert fake.sleeps == pytest.approx([0.1] * 50)


@pytest.mark.parametrize(("idle", "free"), [(0.5, 5), (1.0, 10), (60.0, BURST)])
def test_idle_time_refills_up_to_the_burst(idle: float, free: int) -> None:
    fake = FakeTime()
    bucket = fake.bucket()
    drain(bucket, fake, BURST)
    fake.now += idle
    assert drain(bucket, fake, free) == 0
    assert drain(bucket, fake, 1) == pytest.approx(0.1)


def test_slow_down_pauses_for_retry_after_halves_the_rate_and_recovers() -> None:
    fake = FakeTime()
    bucket = fake.bucket()
    drain(bucket, fake, BURST + 5)
    bucket.slow_down(2.0)
    assert bucket.rate == pytest.approx(LIMIT.rate / 2)
    waited = drain(bucket, fake, 1)
    assert waited >= 2.0
    assert LIMIT.rate / 2 < bucket.rate < LIMIT.rate  # climbing back
    fake.now += RECOVERY_SECONDS / 2
    assert bucket.rate == pytest.approx(LIMIT.rate)


def test_no_burst_follows_a_pause() -> None:
    """The pause earns no tokens: after it, every request still waits its turn."""
    fake = FakeTime()
    bucket = fake.bucket()
    drain(bucket, fake, BURST)
    bucket.slow_down(2.0)
    drain(bucket, fake, 5)
    assert fake.sleeps[0] >= 2.0
    assert len(fake.sleeps) == 5 and all(wait > 0 for wait in fake.sleeps), fake.sleeps


def test_slow_down_without_retry_after_still_halves_the_rate() -> None:
    fake = FakeTime()
    bucket = fake.bucket()
    bucket.slow_down(None)
    assert bucket.rate == pytest.approx(LIMIT.rate / 2)
    assert drain(bucket, fake, 1) > 0


def test_repeated_slow_downs_stop_at_the_minimum_rate() -> None:
    fake = FakeTime()
    bucket = fake.bucket()
    for _ in range(10):
        bucket.slow_down(0.0)
    assert bucket.rate == pytest.approx(LIMIT.rate * MIN_RATE_SHARE)
    fake.now += RECOVERY_SECONDS
    assert bucket.rate == pytest.approx(LIMIT.rate)


def test_threads_reserve_every_token_exactly_once() -> None:
    """With the clock frozen, token n beyond the burst must wait exactly n / rate."""
    fake = FakeTime(sleep_advances=False)
    bucket = fake.bucket()
    threads, each = 8, 25

    def work() -> None:
        for _ in range(each):
            bucket.acquire()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    beyond = threads * each - BURST
    assert sorted(fake.sleeps) == pytest.approx([n / LIMIT.rate for n in range(1, beyond + 1)])


def test_threads_on_the_real_clock_take_at_least_the_expected_time() -> None:
    limit = RateLimit(rate=50.0, burst=5)
    bucket = TokenBucket(limit)
    threads, each = 6, 10
    free = limit.burst - SAFETY_TOKENS

    def work() -> None:
        for _ in range(each):
            bucket.acquire()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert time.monotonic() - started >= (threads * each - free) / limit.rate - 0.02


# Against the emulator's real limits. --------------------------------------------------------------

@pytest.fixture
def limited(make_sandbox: Callable[..., Sandbox]) -> Sandbox:
    """An emulator that limits as the contract says (10/s per key, burst 20)."""
    config = base_config()
    config["server"]["rate_limit_scale"] = 1
    return make_sandbox(config)


def first_campaign(client: Client) -> str:
    return next(client.campaigns.list()).id


CALLS = 60
MINIMUM = (CALLS - RATE_LIMIT_PER_KEY.burst) / RATE_LIMIT_PER_KEY.rate - 0.1


def test_default_bucket_keeps_a_loop_under_the_limit(limited: Sandbox) -> None:
    spy = RecordingTransport()
    with Client(KEYS["full"], base_url=limited.base_url, transport=spy) as client:
        campaign = first_campaign(client)
        started = time.monotonic()
        for _ in range(CALLS):
            client.campaigns.get(campaign)
        elapsed = time.monotonic() - started
    assert 429 not in spy.statuses() and len(spy.sent) == CALLS + 1
    assert elapsed >= MINIMUM


def test_default_bucket_is_shared_by_threads(limited: Sandbox) -> None:
    spy = RecordingTransport()
    failures: list[BaseException] = []
    with Client(KEYS["full"], base_url=limited.base_url, transport=spy) as client:
        campaign = first_campaign(client)

        def work() -> None:
            try:
                for _ in range(CALLS // 4):
                    client.campaigns.get(campaign)
            except BaseException as error:  # reported by the assertion below
                failures.append(error)

        workers = [threading.Thread(target=work) for _ in range(4)]
        started = time.monotonic()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        elapsed = time.monotonic() - started
    assert failures == []
    assert 429 not in spy.statuses() and len(spy.sent) == CALLS + 1
    assert elapsed >= MINIMUM


def test_without_a_bucket_the_emulator_answers_429(limited: Sandbox) -> None:
    """The control: the same loop unlimited draws 429 within the first burst and a half."""
    spy = RecordingTransport()
    with Client(KEYS["full"], base_url=limited.base_url, transport=spy, rate_limit=None,
                max_retries=0) as client:
        campaign = first_campaign(client)
        started = time.monotonic()
        with pytest.raises(RateLimitError) as caught:
            for _ in range(CALLS):
                client.campaigns.get(campaign)
    assert time.monotonic() - started < 1.0  # no waits on the client's side
    assert caught.value.code == "rate_limit_exceeded" and caught.value.retry_after
    assert spy.statuses().count(429) == 1 and len(spy.sent) <= 30


def test_no_bucket_makes_no_waits(sandbox: Sandbox) -> None:
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None) as client:
        campaign = first_campaign(client)
        started = time.monotonic()
        for _ in range(CALLS):
            client.campaigns.get(campaign)
    assert time.monotonic() - started < MINIMUM / 2
