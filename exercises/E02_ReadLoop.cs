namespace PooledHttp.Exercises;

// Exercise 02 · Chapter 02, "The 5 MB download"
//
// S0's known-length download called ReadAsync once and trusted it to fill the array. A stream
// returns whatever has arrived: often a few kilobytes of a megabyte. Write the loop it should have
// been: read from body into destination until destination is full or the body ends, and return how
// many bytes you read.
//
// Rules the check holds you to:
//   - each read goes after the bytes already read;
//   - stop when the destination is full (read no further) or when ReadAsync returns 0;
//   - pass cancellationToken on.
//
// The measurement runs S0's download with your loop: Content-Length, one array of that length
// rented from the pool, your loop filling it. Stuck? tests/ExerciseSolutions/E02_ReadLoop.cs.
public static class E02_ReadLoop
{
    public static async Task<int> ReadAsync(Stream body, Memory<byte> destination, CancellationToken cancellationToken)
    {
        await Task.CompletedTask;
        throw new NotImplementedException("Write the read loop.");
    }
}
