// How a defect count reads wherever a verdict is printed: `(1 defect)`, `(2 defects)`.
// Pure, shared by the shim's report and wait lines and `svc lane show`.

export function defectCount(n: number): string {
  return `${n} ${n === 1 ? 'defect' : 'defects'}`;
}
