namespace PooledHttp.Exercises;

/// <summary>
/// Exercise 01, worked. An object of 85,000 bytes or more goes to the large object heap, which the GC
/// reports as generation 2. A byte[] on 64-bit .NET carries 24 bytes besides its elements (the object
/// header, the method table pointer and the length), so 84,976 elements make 85,000 bytes. Found by
/// experiment, as the exercise asks; the check confirms it on the runtime it runs on.
/// </summary>
public static class E01_LargeObjectThreshold
{
    /// <summary>The length of the smallest byte[] born in Gen2.</summary>
    public static int SmallestGen2Array => 85_000 - 24;
}
