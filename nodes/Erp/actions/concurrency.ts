/**
 * Runs `work(0..count-1)` with at most `limit` in flight, in index order of start.
 * After the first failure no new work starts; the ones in flight finish, then that failure is thrown.
 */
export async function forEachConcurrently(
	count: number,
	limit: number,
	work: (index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < count) {
			const index = next++;
			try {
				await work(index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
	if (failure) throw failure.error;
}
