import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { z } from 'zod';
import type { Snapshot } from '../../../../shared/balances.ts';
import { dateTime, timeOfDay } from '../../components/localTime.ts';
import { groupDigits } from '../../../../shared/digits.ts';
import { axisTick } from '../../components/axisTick.ts';

/** The total's snapshots over time; loaded after the figures (the chart library is most of the page's code). */
export default function TotalHistoryChart({ snapshots }: { snapshots: z.output<typeof Snapshot>[] }) {
  return (
    <ResponsiveContainer width="100%" height={200}>
      {/* Numbers for drawing only; the figures shown as text stay exact strings. */}
      <LineChart data={snapshots.map((s) => ({ at: s.at, amount: s.amount, value: Number(s.amount) }))}>
        <CartesianGrid strokeDasharray="3 3" stroke="#334155" />
        <XAxis dataKey="at" type="number" domain={['dataMin', 'dataMax']} stroke="#94a3b8" tickFormatter={(t: number) => timeOfDay(t)} />
        <YAxis stroke="#94a3b8" width={90} domain={['auto', 'auto']} tickFormatter={axisTick} />
        <Tooltip
          labelFormatter={(t) => dateTime(Number(t))}
          formatter={(_v, _name, item) => [groupDigits((item.payload as { amount: string }).amount), 'Total']}
        />
        <Line dataKey="value" stroke="#38bdf8" dot isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}
