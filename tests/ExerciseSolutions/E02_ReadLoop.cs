namespace PooledHttp.Exercises;

/// <summary>Exercise 02, worked: the loop S0's single ReadAsync should have been.</summary>
public static class E02_ReadLoop
{
    /// <summary>Reads until <paramref name="destination"/> is full or the body ends; returns the bytes read.</summary>
    public static async Task<int> ReadAsync(Stream body, Memory<byte> destination, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(body);
        int filled = 0;
        while (filled < destination.Length)
        {
            int read = await body.ReadAsync(destination[filled..], cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                break; // the body ended first: the caller compares the count with what it expected
            }

            filled += read;
        }

        return filled;
    }
}
