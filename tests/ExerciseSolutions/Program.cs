// The check process: your notebook's ExerciseNN.Run call starts this program to check your code,
// away from the notebook's kernel. Nothing to change here: the exercises are the E0N files.
return await PooledHttp.Workshop.Checks.ExerciseHost.RunAsync(args, typeof(Program).Assembly);
