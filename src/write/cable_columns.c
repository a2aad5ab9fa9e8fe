/* fabplan — the cables columns: cables.csv's header names and order, the workbook's titles for
 * them, and which of them list a breakout's legs. One table, read by cables.csv (write_phys.c),
 * the Cables and Network cables sheets (xlsx_cables.c) and `fabplan diff`, so none can drift. */
#include "write/writers.h"

static const struct {
    const char *name, *title;
    signed char leg;            /* the fp_leg_field a Z column lists, -1 */
} cols[FP_CABLES_COLUMN_COUNT] = {
    [FP_CABLES_CABLE_ID] = { "cable_id", "Cable ID", -1 },
    [FP_CABLES_A_HALL] = { "a_hall", "A hall", -1 },
    [FP_CABLES_A_ROW] = { "a_row", "A row", -1 },
    [FP_CABLES_A_RACK] = { "a_rack", "A rack", -1 },
    [FP_CABLES_A_U] = { "a_u", "A U", -1 },
    [FP_CABLES_A_DEVICE] = { "a_device", "A device", -1 },
    [FP_CABLES_A_PORT] = { "a_port", "A port", -1 },
    [FP_CABLES_Z_HALL] = { "z_hall", "Z hall", FP_LEG_HALL },
    [FP_CABLES_Z_ROW] = { "z_row", "Z row", FP_LEG_ROW },
    [FP_CABLES_Z_RACK] = { "z_rack", "Z rack", FP_LEG_RACK },
    [FP_CABLES_Z_U] = { "z_u", "Z U", FP_LEG_U },
    [FP_CABLES_Z_DEVICE] = { "z_device", "Z device", FP_LEG_DEVICE },
    [FP_CABLES_Z_PORT] = { "z_port", "Z port", FP_LEG_PORT },
    [FP_CABLES_MEDIUM] = { "medium", "Medium", -1 },
    [FP_CABLES_GBPS] = { "gbps", "Gb/s", -1 },
    [FP_CABLES_CABLE_PART] = { "cable_part", "Cable part", -1 },
    [FP_CABLES_ROUTE_M] = { "route_m", "Route m", -1 },
    [FP_CABLES_STOCK_M] = { "stock_m", "Stock m", -1 },
    [FP_CABLES_A_TRANSCEIVER] = { "a_transceiver", "A transceiver", -1 },
    [FP_CABLES_Z_TRANSCEIVER] = { "z_transceiver", "Z transceiver", FP_LEG_TRANSCEIVER },
    [FP_CABLES_LABEL_A] = { "label_a", "Label A", -1 },
    [FP_CABLES_LABEL_Z] = { "label_z", "Label Z", FP_LEG_LABEL },
    [FP_CABLES_CORD_A_M] = { "cord_a_m", "Cord A m", -1 },
    [FP_CABLES_CORD_A_STOCK_M] = { "cord_a_stock_m", "Cord A stock m", -1 },
    [FP_CABLES_TRUNK_M] = { "trunk_m", "Trunk m", -1 },
    [FP_CABLES_TRUNK_STOCK_M] = { "trunk_stock_m", "Trunk stock m", -1 },
    [FP_CABLES_CORD_Z_M] = { "cord_z_m", "Cord Z m", -1 },
    [FP_CABLES_CORD_Z_STOCK_M] = { "cord_z_stock_m", "Cord Z stock m", -1 },
    [FP_CABLES_PROTOCOL] = { "protocol", "Protocol", -1 },
    [FP_CABLES_NETWORK] = { "network", "Network", -1 },
};

const char *fp_cables_column_name(int col)
{
    return col >= 0 && col < FP_CABLES_COLUMN_COUNT ? cols[col].name : NULL;
}

const char *fp__cables_column_title(int col)
{
    return col >= 0 && col < FP_CABLES_COLUMN_COUNT ? cols[col].title : NULL;
}

int fp__cables_column_leg(int col)
{
    return col >= 0 && col < FP_CABLES_COLUMN_COUNT ? cols[col].leg : -1;
}

int fp__cables_column_written(int col, int structured, int networks)
{
    if (col >= FP_CABLES_CORD_A_M && col <= FP_CABLES_CORD_Z_STOCK_M)
        return structured;
    if (col == FP_CABLES_NETWORK)
        return networks;
    return col >= 0 && col < FP_CABLES_COLUMN_COUNT;
}

const char *fp__join_legs(char *buf, size_t cap, const fp_cable_info *c, fp_leg_field what,
                          const char *sep)
{
    char num[24];
    size_t len = 0;
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    for (int k = 0; k < c->n_z && len < cap - 1; k++) {
        const fp_cable_end *e = &c->z[k];
        const char *text = num;
        switch (what) {
        case FP_LEG_HALL: num[fp__put_int(num, e->loc.hall)] = '\0'; break;
        case FP_LEG_ROW: num[fp__put_int(num, e->loc.row)] = '\0'; break;
        case FP_LEG_RACK: num[fp__put_int(num, e->loc.rack)] = '\0'; break;
        case FP_LEG_U: num[fp__put_int(num, e->loc.u)] = '\0'; break;
        case FP_LEG_DEVICE: text = e->device_name; break;
        case FP_LEG_PORT: text = e->port; break;
        case FP_LEG_TRANSCEIVER: text = e->transceiver; break;
        case FP_LEG_LABEL: text = e->label; break;
        default: text = e->loc.text; break;
        }
        if (k)
            len += fp__copy_str(buf + len, cap - len, sep);
        if (len < cap - 1)
            len += fp__copy_str(buf + len, cap - len, text);
    }
    return buf;
}
