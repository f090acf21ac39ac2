export function wallParts(
	zone: string,
	ms: number,
): { year: number; month: number; day: number; hour: number; minute: number; second: number };
