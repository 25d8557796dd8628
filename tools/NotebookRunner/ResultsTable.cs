using System.Globalization;

namespace NotebookRunner;

/// <summary>Prints the rows this run added to the results CSVs: one line per measured strategy.</summary>
internal static class ResultsTable
{
    private static readonly string[] Header = ["notebook", "strategy", "payload", "runtime", "allocated / op", "Gen0", "Gen2", "mean"];

    public static void Print(IReadOnlyDictionary<string, int> filesAndLinesBefore, TextWriter writer)
    {
        var rows = new List<string[]> { Header };
        foreach ((string file, int before) in filesAndLinesBefore)
        {
            if (!File.Exists(file))
            {
                continue;
            }

            string[] lines = File.ReadAllLines(file);
            foreach (string line in lines.Skip(Math.Max(before, 1)))
            {
                string[] f = PooledHttp.Workshop.Measuring.CsvLine.Split(line); // notebook,benchmark,strategy,payload,variant,runtime,allocated,gen0,gen1,gen2,mean,error,...
                if (f.Length < 12)
                {
                    continue;
                }

                string strategy = f[4].Length == 0 ? f[2] : $"{f[2]} ({f[4]})";
                rows.Add([f[0], strategy, Bytes(f[3]), f[5], Bytes(f[6]), Collections(f[7]), Collections(f[9]), Nanoseconds(f[10])]);
            }
        }

        if (rows.Count == 1)
        {
            writer.WriteLine("No measurements were written in this run.");
            return;
        }

        int[] widths = Enumerable.Range(0, rows[0].Length).Select(i => rows.Max(r => r[i].Length)).ToArray();
        writer.WriteLine();
        writer.WriteLine("Allocations per strategy (this run):");
        foreach (string[] row in rows)
        {
            writer.WriteLine(string.Join("  ", row.Select((c, i) => i < 2 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))));
        }
    }

    private static string Bytes(string value)
        => double.TryParse(value, CultureInfo.InvariantCulture, out double bytes) ? PooledHttp.Workshop.Measuring.ByteUnits.Format(bytes) : "-";

    private static string Collections(string perThousand) => perThousand is "0" or "" ? "-" : perThousand;

    private static string Nanoseconds(string value)
        => double.TryParse(value, CultureInfo.InvariantCulture, out double ns) ? PooledHttp.Workshop.Measuring.TimeUnits.Format(ns) : "-";
}
