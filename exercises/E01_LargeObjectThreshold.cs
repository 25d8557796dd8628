namespace PooledHttp.Exercises;

// Exercise 01 · Chapter 01, "Why allocations hurt"
//
// What is the smallest byte[] that is born in Gen2, on the large object heap?
//
// Find it by experiment in the chapter's playground cell (GC.GetGeneration tells you where an
// object lives), then write your answer below and run the exercise cell again. The check allocates
// your length and one byte less; the measurement counts the collections each one causes.
//
// Hint: the documented threshold is 85,000 bytes, but that counts the whole object, not only
// its elements. Stuck? A worked answer is in tests/ExerciseSolutions/E01_LargeObjectThreshold.cs.
public static class E01_LargeObjectThreshold
{
    /// <summary>Your answer: the length of the smallest byte[] that GC.GetGeneration reports as 2.</summary>
    public static int SmallestGen2Array => 0;
}
