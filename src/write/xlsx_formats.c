/* fabplan — the workbook's formats (cell styles): every style plan.xlsx uses, made once per book
 * in one fixed order (the order numbers them in styles.xml, so the same plan gives the same
 * bytes). See xlsx.h. */
#include "xlsx.h"

/* Light fills per medium, close to the jackets crews see: grey copper, aqua OM4, yellow OS2,
 * lavender twisted pair. */
static const lxw_color_t medium_fill[FP_MEDIUM_COUNT] = { 0xEDEDED, 0xE2EFDA, 0xFCE4D6,
                                                          0xDAEEF3, 0xFFF2CC, 0xE4DFEC };

/* A new style. Every style is top-aligned: a cell beside a wrapped one (a bundle's cable ids on
 * the Pull list, a rack's contents on Racks) starts on the wrapped cell's first line, not at the
 * bottom of the tall row where it would read as belonging to the row below. */
static lxw_format *fmt(fp_xlsx_book *b, const char *num, int bold, lxw_color_t fill, int top_border)
{
    lxw_format *f = workbook_add_format(b->wb);
    format_set_align(f, LXW_ALIGN_VERTICAL_TOP);
    if (num)
        format_set_num_format(f, num);
    if (bold)
        format_set_bold(f);
    if (fill)
        format_set_bg_color(f, fill);
    if (top_border)
        format_set_top(f, LXW_BORDER_THIN);
    return f;
}

/* The plain styles: headers, titles, number formats, subtotal and total rows, warnings. */
static void make_cell_formats(fp_xlsx_book *b)
{
    b->header = fmt(b, NULL, 1, 0xD9E1F2, 0);
    format_set_bottom(b->header, LXW_BORDER_THIN);
    format_set_text_wrap(b->header);
    b->section = fmt(b, NULL, 1, 0xD9E1F2, 0);
    format_set_bottom(b->section, LXW_BORDER_THIN);
    b->left_int = fmt(b, "0", 0, 0, 0);
    format_set_align(b->left_int, LXW_ALIGN_LEFT);
    b->center = fmt(b, NULL, 0, 0, 0);
    format_set_align(b->center, LXW_ALIGN_CENTER);
    b->indent = fmt(b, NULL, 0, 0, 0);
    format_set_indent(b->indent, 1);
    /* Long text (a spine rack's contents) wraps inside its column instead of running across
     * the page and shrinking the printout. */
    b->wrap = fmt(b, NULL, 0, 0, 0);
    format_set_indent(b->wrap, 1);
    format_set_text_wrap(b->wrap);
    b->title = fmt(b, NULL, 1, 0, 0);
    format_set_font_size(b->title, 14);
    b->bold = fmt(b, NULL, 1, 0, 0);
    b->text = fmt(b, NULL, 0, 0, 0);
    b->integer = fmt(b, "#,##0", 0, 0, 0);
    b->len = fmt(b, "#,##0.0", 0, 0, 0);
    b->money = fmt(b, "$#,##0.00", 0, 0, 0);
    b->ratio = fmt(b, "0.00", 0, 0, 0);
    b->watts = fmt(b, "#,##0.0", 0, 0, 0);
    b->percent = fmt(b, "0.0%", 0, 0, 0);
    b->rate = fmt(b, "0.0000", 0, 0, 0);
    b->hours = fmt(b, "#,##0.00", 0, 0, 0);
    b->sub_text = fmt(b, NULL, 1, 0xF2F2F2, 1);
    b->sub_int = fmt(b, "#,##0", 1, 0xF2F2F2, 1);
    b->sub_money = fmt(b, "$#,##0.00", 1, 0xF2F2F2, 1);
    b->sub_watts = fmt(b, "#,##0.0", 1, 0xF2F2F2, 1);
    b->tot_text = fmt(b, NULL, 1, 0xD9E1F2, 1);
    b->tot_int = fmt(b, "#,##0", 1, 0xD9E1F2, 1);
    b->tot_money = fmt(b, "$#,##0.00", 1, 0xD9E1F2, 1);
    b->tot_watts = fmt(b, "#,##0.0", 1, 0xD9E1F2, 1);
    b->spare_text = fmt(b, NULL, 0, 0, 0);
    format_set_font_color(b->spare_text, 0x808080);
    format_set_indent(b->spare_text, 1);
    b->warn = fmt(b, NULL, 1, 0xFFC7CE, 0);
}

/* The elevation fills: one per tier, and one per network role when the spec has networks. */
static void make_role_formats(fp_xlsx_book *b)
{
    /* Elevation cells by tier: servers blue, leaves green, spines yellow, cores orange, super-
     * cores lilac; a grey hairline keeps each unit countable. */
    static const lxw_color_t role_fill[FP_MAX_TIERS + 1] = { 0xDDEBF7, 0xC6E0B4, 0xFFE699,
                                                             0xF8CBAD, 0xD9D2E9 };
    for (int t = 0; t <= FP_MAX_TIERS; t++) {
        b->role[t] = fmt(b, NULL, 0, role_fill[t], 0);
        format_set_font_size(b->role[t], 9);
        format_set_border(b->role[t], LXW_BORDER_HAIR);
        format_set_border_color(b->role[t], 0x808080);
    }
    /* With spec `networks`: their switches by network role (converged teal, storage tan,
     * in-band management periwinkle, out-of-band coral), their extra endpoints (storage,
     * management, UFM servers) steel blue, darker than the compute servers. Made only then, so
     * a plan without networks keeps its styles byte for byte. */
    if (fp__plan_net_count(b->plan) > 0) {
        static const lxw_color_t net_fill[FP_NET_OOB + 2] = { 0x8FD3C9, 0xDDC3A5, 0xAAB4E6,
                                                               0xF4A6A6, 0x9DC3E6 };
        for (int k = 0; k < FP_NET_OOB + 2; k++) {
            b->net_fill[k] = fmt(b, NULL, 0, net_fill[k], 0);
            format_set_font_size(b->net_fill[k], 9);
            format_set_border(b->net_fill[k], LXW_BORDER_HAIR);
            format_set_border_color(b->net_fill[k], 0x808080);
        }
    }
}

/* Patch panels, the percentage warning, sign-off boxes and the cable sheets' colours by medium. */
static void make_sheet_formats(fp_xlsx_book *b)
{
    /* Patch panels (structured cabling): grey, like the panels' steel. */
    b->panel = fmt(b, NULL, 0, 0xD9D9D9, 0);
    b->warn_percent = fmt(b, "0.0%", 1, 0xFFC7CE, 0);
    format_set_font_size(b->panel, 9);
    format_set_border(b->panel, LXW_BORDER_HAIR);
    format_set_border_color(b->panel, 0x808080);
    /* A box to tick or write in (sign-off columns). */
    b->box = fmt(b, NULL, 0, 0, 0);
    format_set_border(b->box, LXW_BORDER_THIN);
    format_set_border_color(b->box, 0xA6A6A6);
    for (int m = 0; m < FP_MEDIUM_COUNT; m++) {
        /* Text indented and small numbers centred, so "42" and "su01-leaf-r1" in adjacent
         * cells do not read as one "42 su01-leaf-r1". Counts and lengths group thousands, as
         * the summary does: a bundle's "Total m" reads 1,280.0, not 1280.0. */
        b->medium[m][K_TEXT] = fmt(b, NULL, 0, medium_fill[m], 0);
        format_set_indent(b->medium[m][K_TEXT], 1);
        b->medium[m][K_INT] = fmt(b, "#,##0", 0, medium_fill[m], 0);
        format_set_align(b->medium[m][K_INT], LXW_ALIGN_CENTER);
        b->medium[m][K_LEN] = fmt(b, "#,##0.0", 0, medium_fill[m], 0);
        b->medium[m][K_WRAP] = fmt(b, NULL, 0, medium_fill[m], 0);
        format_set_text_wrap(b->medium[m][K_WRAP]);
        format_set_indent(b->medium[m][K_WRAP], 1);
    }
    /* The Ports sheet: a switch's first row with a rule above it, per medium, then spare ports,
     * then cells without a fill (device, location, gaps). */
    for (int m = 0; m < FP_MEDIUM_COUNT + 2; m++) {
        lxw_color_t fill = m < FP_MEDIUM_COUNT ? medium_fill[m] : 0;
        b->port_top[m] = fmt(b, NULL, 0, fill, 1);
        format_set_top_color(b->port_top[m], 0x808080);
        if (m <= FP_MEDIUM_COUNT)
            format_set_indent(b->port_top[m], 1);
        if (m == FP_MEDIUM_COUNT)
            format_set_font_color(b->port_top[m], 0x808080);
    }
}

/* Every style of the workbook, made in one fixed order (the order numbers them in styles.xml). */
void fp_xlsx__make_formats(fp_xlsx_book *b)
{
    make_cell_formats(b);
    make_role_formats(b);
    make_sheet_formats(b);
}
