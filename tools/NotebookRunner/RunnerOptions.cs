namespace NotebookRunner;

/// <summary>What the runner's command line asked for.</summary>
/// <param name="Notebooks">Full paths of the notebooks to run, in order; empty for every chapter.</param>
/// <param name="Quick">The quick measuring profile.</param>
/// <param name="Output">The output folder as given, or null for artifacts/.</param>
/// <param name="CellTimeout">How long one cell may run.</param>
/// <param name="Child">This process runs one notebook for a parent runner.</param>
internal sealed record RunnerOptions(IReadOnlyList<string> Notebooks, bool Quick, string? Output, TimeSpan CellTimeout, bool Child);
