import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisTick } from '../../components/axisTick.ts';
import { groupDigits } from '../../../../shared/digits.ts';
import { useThemeColours } from '../../app/theme.ts';

export interface BreakdownRow {
  name: string;
  amount: string;
}

/** The tooltip in the theme's own colours, with the exact amount grouped (the bar's length is only a picture of it). */
function AmountTooltip({ active, payload, currency }: { active?: boolean; payload?: readonly { payload?: unknown }[]; currency: string }) {
  const row = active ? (payload?.[0]?.payload as (BreakdownRow & { value: number }) | undefined) : undefined;
  if (!row) return null;
  return (
    <div className="chart-tooltip">
      <div>{row.name}</div>
      <div className="num">
        {groupDigits(row.amount)} {currency}
      </div>
    </div>
  );
}

export function BreakdownChart({ rows, currency }: { rows: BreakdownRow[]; currency: string }) {
  const colours = useThemeColours();
  // The chart needs numbers to draw bars; every amount shown as text stays the exact string.
  const data = rows.map((r) => ({ ...r, value: Number(r.amount) }));
  return (
    <div className="chart" data-testid="breakdown-chart">
      <ResponsiveContainer width="100%" height={260}>
        <BarChart layout="vertical" data={data}>
          <CartesianGrid strokeDasharray="3 3" stroke={colours.grid} />
          <XAxis type="number" stroke={colours.axis} tick={{ fill: colours.axis }} tickFormatter={axisTick} />
          <YAxis type="category" dataKey="name" stroke={colours.axis} tick={{ fill: colours.axis }} width={140} />
          <Tooltip
            content={(props) => <AmountTooltip active={props.active} payload={props.payload} currency={currency} />}
            cursor={{ fill: colours.grid, fillOpacity: 0.3 }}
          />
          <Bar dataKey="value" fill={colours.bar} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
