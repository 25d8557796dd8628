using System.Buffers;
using System.Runtime.CompilerServices;
using PooledHttp.Buffers;

namespace PooledHttp.Tests.Buffers;

public class BoundedArrayPoolTests
{
    private const int KiB = 1024;
    private const int MiB = 1024 * 1024;

    [Fact]
    public void Rents_powers_of_two_and_hands_a_returned_array_out_again()
    {
        var pool = new BoundedArrayPool(4 * MiB, MiB, Timeout.InfiniteTimeSpan);
        byte[] first = pool.Rent(100 * KiB);
        Assert.Equal(128 * KiB, first.Length);
        Assert.Empty(pool.Rent(0));

        pool.Return(first);
        Assert.Equal(128 * KiB, pool.RetainedBytes);
        Assert.Same(first, pool.Rent(65 * KiB)); // same bucket
        Assert.Equal(0, pool.RetainedBytes);
    }

    [Fact]
    public void Arrays_below_the_body_range_are_the_shared_pools_and_never_touch_the_budget()
    {
        // Small frequent rents would queue on the lock; ArrayPool<byte>.Shared serves them per core.
        var pool = new BoundedArrayPool(4 * MiB, MiB, Timeout.InfiniteTimeSpan);
        byte[] small = pool.Rent(1000);
        Assert.Equal(1024, small.Length);
        Assert.Equal(16, pool.Rent(1).Length);
        pool.Return(small);
        Assert.Equal(0, pool.RetainedBytes);
        Assert.Equal(0, pool.RetainedArrays);
        byte[] sharedOne = ArrayPool<byte>.Shared.Rent(1000);
        Assert.Same(small, sharedOne); // the same thread's slot in the shared pool
        ArrayPool<byte>.Shared.Return(sharedOne);
    }

    [Fact]
    public void Keeps_any_number_of_one_size_while_they_fit_the_budget()
    {
        // 64 bodies of 1 MiB in flight at once: with a budget that holds them all, every one comes back into
        // the pool and the next 64 rents allocate nothing. (A count per size, as before, kept 4 and dropped 60.)
        var pool = new BoundedArrayPool(64 * MiB, MiB, Timeout.InfiniteTimeSpan);
        byte[][] arrays = [.. Enumerable.Range(0, 64).Select(_ => pool.Rent(MiB))];
        foreach (byte[] array in arrays)
        {
            pool.Return(array);
        }

        Assert.Equal(64, pool.RetainedArrays);
        Assert.Equal(64L * MiB, pool.RetainedBytes);
        var again = new HashSet<byte[]>(Enumerable.Range(0, 64).Select(_ => pool.Rent(MiB)), ReferenceEqualityComparer.Instance);
        Assert.True(again.SetEquals(arrays), "the second round should be served from the first round's arrays");
        Assert.Equal(0, pool.RetainedBytes);
    }

    [Fact]
    public void Past_the_budget_keeps_what_fits_and_takes_back_what_it_let_go_while_the_GC_has_not_collected_it()
    {
        var pool = new BoundedArrayPool(10 * MiB, MiB, Timeout.InfiniteTimeSpan);
        byte[][] arrays = [.. Enumerable.Range(0, 16).Select(_ => pool.Rent(MiB))];
        foreach (byte[] array in arrays)
        {
            pool.Return(array);
        }

        Assert.Equal(10, pool.RetainedArrays);
        Assert.Equal(10L * MiB, pool.RetainedBytes);

        // The six it let go are still alive (this test holds them), so the second round allocates nothing.
        byte[][] again = [.. Enumerable.Range(0, 16).Select(_ => pool.Rent(MiB))];
        Assert.True(again.ToHashSet(ReferenceEqualityComparer.Instance).SetEquals(arrays), "every rent should be served from the first round's arrays");
        Assert.Equal(0, pool.RetainedArrays);
        Assert.NotSame(arrays[0], pool.Rent(MiB)); // and each was handed out once
    }

    [Fact]
    public void What_it_let_go_past_the_budget_goes_at_the_next_full_collection()
    {
        var pool = new BoundedArrayPool(10 * MiB, MiB, Timeout.InfiniteTimeSpan);
        WeakReference[] returned = RentAndReturn(pool, 16, MiB);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();

        // The budget is what the pool holds through a full collection: ten arrays, and not one of the six let go.
        Assert.Equal(10, returned.Count(r => r.IsAlive));
        Assert.Equal(10L * MiB, pool.RetainedBytes);
        byte[][] again = [.. Enumerable.Range(0, 16).Select(_ => pool.Rent(MiB))];
        Assert.Equal(10, again.Count(a => returned.Any(r => ReferenceEquals(r.Target, a))));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference[] RentAndReturn(BoundedArrayPool pool, int count, int length)
    {
        byte[][] arrays = [.. Enumerable.Range(0, count).Select(_ => pool.Rent(length))];
        foreach (byte[] array in arrays)
        {
            pool.Return(array);
        }

        return [.. arrays.Select(a => new WeakReference(a))];
    }

    [Fact]
    public void A_second_return_of_an_array_it_let_go_is_refused_while_it_could_still_hand_it_out()
    {
        var pool = new BoundedArrayPool(MiB, 2 * MiB, Timeout.InfiniteTimeSpan) { Name = "let-go" };
        byte[] kept = pool.Rent(MiB);
        byte[] letGo = pool.Rent(2 * MiB);
        pool.Return(kept);
        pool.Return(letGo); // over the budget, and nothing free is as large: let go
        Assert.Equal(1, pool.RetainedArrays);
        var error = Assert.Throws<InvalidOperationException>(() => pool.Return(letGo));
        Assert.Contains("let-go", error.Message, StringComparison.Ordinal);

        Assert.Same(kept, pool.Rent(MiB));
        Assert.Same(letGo, pool.Rent(2 * MiB));
        Assert.NotSame(letGo, pool.Rent(2 * MiB)); // handed out once
    }

    [Fact]
    public void A_pool_sized_for_a_load_has_room_for_its_bodies_and_their_growth()
    {
        BoundedArrayPool pool = BodyPool.Create(bodiesInFlight: 64, typicalBodySize: 1_000_000);
        Assert.Equal(64L * MiB * 3 / 2, pool.MaxRetainedBytes); // rounded to 1 MiB, plus half for growth
        Assert.Equal(BodyPool.MaxArrayLength, pool.MaxArrayLength);
        Assert.Equal(256 * MiB, BodyPool.Create(1, 200 * MiB).MaxArrayLength); // a typical body past 64 MiB is still pooled
        Assert.Throws<ArgumentOutOfRangeException>(() => BodyPool.Create(0, MiB));
        Assert.Throws<ArgumentOutOfRangeException>(() => BodyPool.Create(1, 0));
    }

    [Fact]
    public void Over_budget_a_return_makes_room_only_from_arrays_at_least_its_size_and_is_refused_otherwise()
    {
        var clock = new ManualClock();
        var pool = new BoundedArrayPool(3 * MiB, 4 * MiB, Timeout.InfiniteTimeSpan, clock);
        byte[] two = pool.Rent(2 * MiB);
        byte[] one = pool.Rent(MiB);
        byte[] another = pool.Rent(2 * MiB);
        byte[] four = pool.Rent(2 * MiB + 1);

        pool.Return(two);
        clock.Advance(TimeSpan.FromSeconds(1));
        pool.Return(one);
        Assert.Equal(3 * MiB, pool.RetainedBytes);

        pool.Return(four); // 4 MiB: nothing free is that large, and it is over the budget alone: refused
        Assert.Equal(3 * MiB, pool.RetainedBytes);

        clock.Advance(TimeSpan.FromSeconds(1));
        pool.Return(another); // 2 MiB: the 2 MiB array returned first makes room; the 1 MiB one is never touched
        Assert.Equal(3 * MiB, pool.RetainedBytes);
        Assert.Same(another, pool.Rent(2 * MiB));
        Assert.Same(one, pool.Rent(MiB));
        Assert.Equal(0, pool.RetainedBytes); // `two` no longer counts: it was let go

        // Let go, but alive (this test holds it): taken back before a new one is allocated.
        Assert.Same(two, pool.Rent(2 * MiB));
        Assert.Same(four, pool.Rent(4 * MiB));
    }

    [Fact]
    public void A_pool_whose_bodies_got_smaller_keeps_the_smaller_arrays()
    {
        // 4 arrays of 2 MiB fill an 8 MiB budget; the load moves to 1 MiB bodies: their returns make room from the
        // larger free arrays, and the next round of 1 MiB rents finds every array it needs.
        var pool = new BoundedArrayPool(8 * MiB, 4 * MiB, Timeout.InfiniteTimeSpan);
        byte[][] large = [.. Enumerable.Range(0, 4).Select(_ => pool.Rent(2 * MiB))];
        foreach (byte[] array in large)
        {
            pool.Return(array);
        }

        byte[][] small = [.. Enumerable.Range(0, 8).Select(_ => pool.Rent(MiB))];
        foreach (byte[] array in small)
        {
            pool.Return(array);
        }

        byte[][] again = [.. Enumerable.Range(0, 8).Select(_ => pool.Rent(MiB))];
        Assert.Equal(8, again.Intersect(small, ReferenceEqualityComparer.Instance).Count());
    }

    [Fact]
    public void A_big_return_never_pushes_out_the_small_traffics_arrays()
    {
        // An 8 MiB budget holding 64 arrays of 64 KiB (4 MiB), the working set of steady small downloads. One body of
        // 8 MiB comes and goes. When its return pushed the oldest arrays out, the next 64 small rents allocated 4 MiB
        // again (measured: 4.2 MB), and their returns pushed the big one out in turn.
        var pool = new BoundedArrayPool(8 * MiB, 8 * MiB, Timeout.InfiniteTimeSpan);
        byte[][] small = [.. Enumerable.Range(0, 64).Select(_ => pool.Rent(64 * KiB))];
        foreach (byte[] array in small)
        {
            pool.Return(array);
        }

        pool.Return(pool.Rent(8 * MiB));

        long before = GC.GetAllocatedBytesForCurrentThread();
        byte[][] again = [.. Enumerable.Range(0, 64).Select(_ => pool.Rent(64 * KiB))];
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        // The arrays of `again` (64 references, about 600 B) and nothing else: not one 64 KiB array.
        Assert.True(allocated < 4 * KiB, $"the small traffic allocated {allocated:N0} B after one big return");
        Assert.Equal(small.ToHashSet(ReferenceEqualityComparer.Instance).Count, again.Intersect(small, ReferenceEqualityComparer.Instance).Count());
    }

    [Fact]
    public void A_second_return_is_refused_before_it_can_hand_one_array_to_two_renters()
    {
        var pool = new BoundedArrayPool(8 * MiB, MiB, Timeout.InfiniteTimeSpan) { Name = "twice" };
        byte[] array = pool.Rent(MiB);
        pool.Return(array);
        var error = Assert.Throws<InvalidOperationException>(() => pool.Return(array));
        Assert.Contains("twice", error.Message, StringComparison.Ordinal);
        Assert.Equal(1, pool.RetainedArrays);
        Assert.Same(array, pool.Rent(MiB));
        Assert.NotSame(array, pool.Rent(MiB)); // it was kept once, so it is handed out once
    }

    [Fact]
    public void With_clear_on_return_every_array_comes_back_zeroed_whatever_the_caller_asks()
    {
        var pool = new BoundedArrayPool(8 * MiB, MiB, Timeout.InfiniteTimeSpan) { ClearOnReturn = true };
        foreach (int size in new[] { 100, MiB })
        {
            byte[] array = pool.Rent(size);
            array.AsSpan().Fill(0x5A);
            pool.Return(array, clearArray: false);
            Assert.All(array, b => Assert.Equal(0, b));
        }

        BoundedArrayPool secret = BodyPool.Create(1, MiB, "secrets", null, clearOnReturn: true);
        Assert.True(secret.ClearOnReturn);
        Assert.Equal("secrets", secret.Name);
    }

    [Fact]
    public void The_PooledHttp_meter_counts_hits_misses_refused_returns_and_trims_per_pool()
    {
        var pool = new BoundedArrayPool(MiB, 2 * MiB, Timeout.InfiniteTimeSpan) { Name = "metered-" + Guid.NewGuid().ToString("N") };
        var seen = new Dictionary<string, long>();
        using var listener = new System.Diagnostics.Metrics.MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "PooledHttp")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            string? name = null;
            string flag = string.Empty;
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                if (tag.Key == "pooledhttp.pool.name")
                {
                    name = (string?)tag.Value;
                }
                else
                {
                    flag = $"{tag.Key}={tag.Value}";
                }
            }

            if (name == pool.Name)
            {
                lock (seen)
                {
                    string key = $"{instrument.Name} {flag}".Trim();
                    seen[key] = seen.GetValueOrDefault(key) + value;
                }
            }
        });
        listener.Start();

        byte[] a = pool.Rent(MiB);      // miss
        byte[] b = pool.Rent(2 * MiB);  // miss
        pool.Return(a);                 // kept
        pool.Return(b);                 // refused: over the budget, and nothing free is as large
        pool.Return(pool.Rent(MiB));    // hit, kept
        pool.Trim(TimeSpan.Zero);       // drops the 1 MiB
        Assert.Same(b, pool.Rent(2 * MiB)); // a miss, but b was let go and is alive: reclaimed, nothing allocated
        listener.RecordObservableInstruments();

        Assert.Equal(3, seen.GetValueOrDefault("pooledhttp.pool.rents pooledhttp.pool.hit=False"));
        Assert.Equal(1, seen.GetValueOrDefault("pooledhttp.pool.reclaimed"));
        Assert.Equal(1, seen.GetValueOrDefault("pooledhttp.pool.rents pooledhttp.pool.hit=True"));
        Assert.Equal(2, seen.GetValueOrDefault("pooledhttp.pool.returns pooledhttp.pool.kept=True"));
        Assert.Equal(1, seen.GetValueOrDefault("pooledhttp.pool.returns pooledhttp.pool.kept=False"));
        Assert.Equal(MiB, seen.GetValueOrDefault("pooledhttp.pool.trimmed"));
        Assert.True(seen.ContainsKey("pooledhttp.pool.retained"), "the retained-bytes gauge reports every live pool");
    }

    [Fact]
    public void Never_holds_more_than_its_budget_whatever_comes_back()
    {
        var pool = new BoundedArrayPool(10 * MiB, 64 * MiB, Timeout.InfiniteTimeSpan);
        var random = new Random(42);
        var rented = new List<byte[]>();
        for (int i = 0; i < 2000; i++)
        {
            if (rented.Count > 0 && random.Next(2) == 0)
            {
                int at = random.Next(rented.Count);
                pool.Return(rented[at]);
                rented.RemoveAt(at);
            }
            else
            {
                rented.Add(pool.Rent(random.Next(1, 16 * MiB)));
            }

            Assert.InRange(pool.RetainedBytes, 0, 10 * MiB);
        }
    }

    [Fact]
    public void An_array_bigger_than_the_budget_or_the_largest_size_is_not_kept()
    {
        var pool = new BoundedArrayPool(2 * MiB, 4 * MiB, Timeout.InfiniteTimeSpan);
        byte[] over = pool.Rent(5 * MiB);
        Assert.Equal(5 * MiB, over.Length); // exact: past the largest size the pool only allocates
        pool.Return(over);
        pool.Return(pool.Rent(4 * MiB)); // a pool size, but over the budget
        Assert.Equal(0, pool.RetainedBytes);
    }

    [Fact]
    public void Refuses_an_array_it_could_not_have_rented()
    {
        var pool = new BoundedArrayPool(4 * MiB, MiB, Timeout.InfiniteTimeSpan);
        Assert.Throws<ArgumentException>(() => pool.Return(new byte[1000]));
        Assert.Throws<ArgumentNullException>(() => pool.Return(null!));
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(-1));
        Assert.Equal(0, pool.RetainedArrays);
    }

    [Fact]
    public void Clears_on_request()
    {
        var pool = new BoundedArrayPool(4 * MiB, MiB, Timeout.InfiniteTimeSpan);
        byte[] array = pool.Rent(100);
        Array.Fill(array, (byte)0xAB);
        pool.Return(array, clearArray: true);
        Assert.All(pool.Rent(100), b => Assert.Equal(0, b));
    }

    [Fact]
    public void Trim_drops_exactly_the_arrays_idle_for_at_least_the_given_time()
    {
        var clock = new ManualClock();
        var pool = new BoundedArrayPool(4 * MiB, MiB, Timeout.InfiniteTimeSpan, clock);
        byte[] old = pool.Rent(64 * KiB);
        byte[] recent = pool.Rent(64 * KiB);
        pool.Return(old);
        clock.Advance(TimeSpan.FromSeconds(50));
        pool.Return(recent);
        clock.Advance(TimeSpan.FromSeconds(10));

        Assert.Equal(64 * KiB, pool.Trim(TimeSpan.FromSeconds(60)));
        Assert.Equal(1, pool.RetainedArrays);
        Assert.Same(recent, pool.Rent(64 * KiB));

        pool.Return(recent);
        Assert.Equal(64 * KiB, pool.Trim(TimeSpan.Zero));
        Assert.Equal(0, pool.RetainedBytes);
    }

    [Fact]
    public void A_full_collection_drops_idle_arrays_and_keeps_fresh_ones()
    {
        var idle = new BoundedArrayPool(4 * MiB, MiB, TimeSpan.Zero);
        var kept = new BoundedArrayPool(4 * MiB, MiB, TimeSpan.FromHours(1));
        idle.Return(idle.Rent(MiB));
        kept.Return(kept.Rent(MiB));

        // The pool's callback is a finalizer: a full collection, then the finalizers it queued.
        GC.Collect();
        GC.WaitForPendingFinalizers();

        Assert.Equal(0, idle.RetainedBytes);
        Assert.Equal(MiB, kept.RetainedBytes);
        GC.KeepAlive(idle);
        GC.KeepAlive(kept);
    }

    [Fact]
    public void A_pool_nobody_holds_is_collected_with_its_arrays()
    {
        WeakReference pool = CreateAndFill();
        for (int i = 0; i < 3 && pool.IsAlive; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        Assert.False(pool.IsAlive, "the gen2 callback must hold its pool weakly");
    }

    [Fact]
    public async Task Concurrent_renters_never_share_an_array()
    {
        var pool = new BoundedArrayPool(2 * MiB, MiB, Timeout.InfiniteTimeSpan);
        var inUse = new HashSet<byte[]>(ReferenceEqualityComparer.Instance);
        var tasks = Enumerable.Range(0, 4).Select(worker => Task.Run(() =>
        {
            for (int i = 0; i < 5000; i++)
            {
                byte[] array = pool.Rent(((i + worker) % 8 + 1) * 4 * KiB);
                lock (inUse)
                {
                    Assert.True(inUse.Add(array), "an array was handed to two renters at once");
                }

                lock (inUse)
                {
                    inUse.Remove(array);
                }

                pool.Return(array);
            }
        }));
        await Task.WhenAll(tasks);
        Assert.InRange(pool.RetainedBytes, 1, 2 * MiB);
    }

    [Fact]
    public void Body_pool_budget_holds_one_array_of_every_size_up_to_its_largest_and_the_loads_it_names()
    {
        long everySize = 0;
        for (long size = BoundedArrayPool.SmallestArray; size <= BodyPool.MaxArrayLength; size *= 2)
        {
            everySize += size;
        }

        Assert.True(everySize <= BodyPool.MaxRetainedBytes, $"one of every size is {everySize:N0} B, over the {BodyPool.MaxRetainedBytes:N0} B budget");
        Assert.Equal(BodyPool.MaxRetainedBytes, BodyPool.Shared.MaxRetainedBytes);
        // Its documentation names 64 bodies of 1 MiB and 8 of 16 MiB, with room for growth.
        Assert.True(BodyPool.Create(64, MiB).MaxRetainedBytes <= BodyPool.MaxRetainedBytes);
        Assert.True(BodyPool.Create(8, 16 * MiB).MaxRetainedBytes <= BodyPool.MaxRetainedBytes);
    }

    [Fact]
    public async Task A_small_body_of_unknown_length_never_takes_the_large_array_a_large_one_left_behind()
    {
        var pool = new BoundedArrayPool(256 * MiB, 64 * MiB, Timeout.InfiniteTimeSpan);
        using (PooledHttp.Buffers.PooledBuffer large = await PooledHttp.Http.PooledBodyReader.ReadAsync(new MemoryStream(new byte[40 * MiB]), declaredLength: null, pool: pool))
        {
            Assert.Equal(40 * MiB, large.Length);
        }

        long kept = pool.RetainedBytes;
        Assert.True(kept >= 64 * MiB, "the 64 MiB array the large body ended in is kept");
        using (PooledHttp.Buffers.PooledBuffer small = await PooledHttp.Http.PooledBodyReader.ReadAsync(new MemoryStream(new byte[10]), declaredLength: null, pool: pool))
        {
            Assert.Equal(10, small.Length);
            Assert.True(pool.RetainedBytes >= 64 * MiB, $"a 10-byte body took {kept - pool.RetainedBytes:N0} B out of the pool for its lease");
        }
    }

    [Fact]
    public async Task A_pool_made_for_a_size_holds_one_array_for_such_a_body_and_a_larger_one_grows_fourfold_past_its_budget()
    {
        // What BodyPool's documentation says of its budget: a body of the typical size, length unknown, holds one array
        // of that size; one byte more grows it fourfold (16 MiB to 64 MiB), which a budget for one body does not keep.
        BoundedArrayPool pool = BodyPool.Create(1, 16 * MiB);
        Assert.Equal(24 * MiB, pool.MaxRetainedBytes);
        using (PooledHttp.Buffers.PooledBuffer body = await PooledHttp.Http.PooledBodyReader.ReadAsync(new MemoryStream(new byte[16 * MiB]), declaredLength: null, pool: pool))
        {
            Assert.Equal(0, pool.RetainedBytes);
        }

        Assert.Equal(16 * MiB, pool.RetainedBytes); // one array, returned whole

        using (PooledHttp.Buffers.PooledBuffer larger = await PooledHttp.Http.PooledBodyReader.ReadAsync(new MemoryStream(new byte[(16 * MiB) + 1]), declaredLength: null, pool: pool))
        {
            Assert.Equal(16 * MiB, pool.RetainedBytes); // it outgrew the 16 MiB array, which went back, into 64 MiB
        }

        Assert.Equal(16 * MiB, pool.RetainedBytes); // the 64 MiB array did not fit the budget: refused
    }

    [Fact]
    public void A_rent_that_rounds_up_to_the_smallest_pooled_array_comes_back_to_the_same_pool()
    {
        // 10,000 bytes round up to 16 KiB, this pool's smallest: rent and return must agree on whose array it is.
        var pool = new BoundedArrayPool(4 * MiB, MiB, Timeout.InfiniteTimeSpan);
        pool.Return(pool.Rent(10_000));
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1_000; i++)
        {
            pool.Return(pool.Rent(10_000));
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(allocated < 1_000, $"1,000 rents and returns of 10,000 bytes allocated {allocated:N0} B");
        Assert.Equal(1, pool.RetainedArrays);
    }

    [Fact]
    public void A_pool_made_for_small_bodies_has_room_for_the_smallest_array_each_holds()
    {
        BoundedArrayPool pool = BodyPool.Create(64, 4096);
        Assert.True(pool.MaxRetainedBytes >= 64L * BoundedArrayPool.SmallestPooledArray, $"{pool.MaxRetainedBytes:N0} B cannot hold 64 arrays of 16 KiB");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference CreateAndFill()
    {
        var pool = new BoundedArrayPool(4 * MiB, MiB, Timeout.InfiniteTimeSpan);
        pool.Return(pool.Rent(MiB));
        return new WeakReference(pool);
    }

    /// <summary>A clock the test moves by hand.</summary>
    private sealed class ManualClock : TimeProvider
    {
        private long _ticks = 1;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => _ticks;

        public void Advance(TimeSpan by) => _ticks += by.Ticks;
    }
}
