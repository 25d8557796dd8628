using System.Buffers.Binary;
using System.IO.Compression;

namespace PooledHttp.Tests.Support;

/// <summary>
/// The pixels of a PNG as Chromium writes screenshots (8-bit RGB or RGBA, not interlaced): enough to look at a
/// chart's picture from a test without an imaging package.
/// </summary>
internal sealed class PngPixels
{
    private static readonly byte[] Signature = [137, 80, 78, 71, 13, 10, 26, 10];

    private readonly byte[] _pixels;
    private readonly int _channels;

    private PngPixels(int width, int height, int channels, byte[] pixels)
    {
        Width = width;
        Height = height;
        _channels = channels;
        _pixels = pixels;
    }

    public int Width { get; }

    public int Height { get; }

    /// <summary>The red, green and blue of the pixel at column <paramref name="x"/>, row <paramref name="y"/>.</summary>
    public (byte R, byte G, byte B) this[int x, int y]
    {
        get
        {
            int at = ((y * Width) + x) * _channels;
            return (_pixels[at], _pixels[at + 1], _pixels[at + 2]);
        }
    }

    public static PngPixels Read(string path)
    {
        byte[] file = File.ReadAllBytes(path);
        if (!file.AsSpan(0, Math.Min(8, file.Length)).SequenceEqual(Signature))
        {
            throw new InvalidDataException($"{path} is not a PNG.");
        }

        int width = 0, height = 0, channels = 0;
        using var compressed = new MemoryStream();
        for (int at = 8; at + 8 <= file.Length;)
        {
            int length = BinaryPrimitives.ReadInt32BigEndian(file.AsSpan(at));
            string type = System.Text.Encoding.ASCII.GetString(file, at + 4, 4);
            ReadOnlySpan<byte> data = file.AsSpan(at + 8, length);
            if (type == "IHDR")
            {
                width = BinaryPrimitives.ReadInt32BigEndian(data);
                height = BinaryPrimitives.ReadInt32BigEndian(data[4..]);
                (byte depth, byte color, byte interlace) = (data[8], data[9], data[12]);
                channels = color switch { 2 => 3, 6 => 4, _ => 0 };
                if (depth != 8 || channels == 0 || interlace != 0)
                {
                    throw new InvalidDataException($"{path}: only 8-bit RGB or RGBA PNGs without interlacing are read here (bit depth {depth}, colour type {color}, interlace {interlace}).");
                }
            }
            else if (type == "IDAT")
            {
                compressed.Write(data);
            }

            at += 12 + length; // length, type, data, CRC
        }

        compressed.Position = 0;
        using var inflated = new MemoryStream();
        using (var zlib = new ZLibStream(compressed, CompressionMode.Decompress))
        {
            zlib.CopyTo(inflated);
        }

        return new PngPixels(width, height, channels, Unfilter(inflated.ToArray(), width, height, channels));
    }

    /// <summary>Undoes PNG's per-row filters (none, sub, up, average, Paeth).</summary>
    private static byte[] Unfilter(byte[] rows, int width, int height, int channels)
    {
        int stride = width * channels;
        var pixels = new byte[stride * height];
        for (int y = 0; y < height; y++)
        {
            byte filter = rows[y * (stride + 1)];
            ReadOnlySpan<byte> line = rows.AsSpan((y * (stride + 1)) + 1, stride);
            for (int i = 0; i < stride; i++)
            {
                int left = i >= channels ? pixels[(y * stride) + i - channels] : 0;
                int up = y > 0 ? pixels[((y - 1) * stride) + i] : 0;
                int upLeft = y > 0 && i >= channels ? pixels[((y - 1) * stride) + i - channels] : 0;
                int predicted = filter switch
                {
                    0 => 0,
                    1 => left,
                    2 => up,
                    3 => (left + up) / 2,
                    4 => Paeth(left, up, upLeft),
                    _ => throw new InvalidDataException($"Unknown PNG filter {filter} in row {y}."),
                };
                pixels[(y * stride) + i] = (byte)(line[i] + predicted);
            }
        }

        return pixels;
    }

    private static int Paeth(int left, int up, int upLeft)
    {
        int estimate = left + up - upLeft;
        int toLeft = Math.Abs(estimate - left), toUp = Math.Abs(estimate - up), toUpLeft = Math.Abs(estimate - upLeft);
        return toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
    }
}
