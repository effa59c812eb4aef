#!/usr/bin/env python3
"""Writes the demo pages in demo/pages/: a few original articles, each re-posted under other sites'
templates, as plain text, and with small edits, plus unrelated pages that share a template.
Deterministic; the output is committed, so the demo needs nothing but this repository."""
import html
import json
import os
import random

ARTICLES = {
    "harbor-bridge": ("en", "City reopens the old harbor bridge after two years of repairs", """
The old harbor bridge reopened to traffic on Monday morning after two years of repairs that cost the city
far more than planned. Engineers replaced the rusted steel deck, rebuilt both approach ramps and installed
a new drainage system that should keep salt water away from the supports during winter storms.
Commuters who had spent months on a long detour through the industrial district welcomed the change.
A bus driver said the route to the hospital was now twenty minutes shorter. The mayor thanked residents
for their patience and promised that the next phase, a protected lane for bicycles, would begin in spring.
Critics on the council pointed out that the budget grew by forty percent and asked for an independent review
of the contracts. The transport department said a full report would be published before the end of the year.
""", """
Traffic wardens will remain at the northern ramp for the first week while drivers get used to the new signals.
"""),
    "sourdough": ("en", "How to keep a sourdough starter alive while you travel", """
A sourdough starter is a living culture of wild yeast and bacteria, and it needs regular feeding to stay active.
If you are going away for a week or two, you do not have to ask a neighbour to look after it. Feed the starter
generously, let it rise for an hour, then put it in the refrigerator in a jar with a loose lid. The cold slows
the microbes down so much that the culture can survive for two or three weeks without food.
When you come back, a grey liquid may have collected on top. That is alcohol produced by hungry yeast and it is
harmless: pour it off or stir it back in for a more sour flavour. Discard most of the starter, feed the rest
with equal weights of flour and water, and keep it at room temperature. After two or three feedings it should
double again within a few hours, and it is ready for baking.
""", """
For longer trips you can dry a thin layer of starter on baking paper and crumble it into a sealed bag.
"""),
    "backup-rotation": ("en", "A simple backup rotation for a small office", """
Small offices often keep a single external disk as their only backup, which fails the day that disk fails or
the office floods. A rotation with three copies removes most of that risk without much cost. Keep one copy on
a disk that is connected every night, one on a disk that is swapped every Friday and taken home by a manager,
and one in a cloud storage account with versioning turned on, so that ransomware cannot overwrite old copies.
Test a restore every month. Pick a random folder, restore it to a scratch location and open a few files.
A backup that was never restored is only a hope. Write the steps down, because the person who set the system up
may be on holiday on the day it is needed. Finally, check the logs every week: silent failures are common when
passwords expire or disks fill up.
""", """
Encrypt the disk that leaves the building, and keep the key somewhere other than the disk itself.
"""),
    "migratory-birds": ("en", "Volunteers count record numbers of migrating cranes", """
Volunteers at the wetland reserve counted more than twelve thousand common cranes during the autumn migration,
the highest number since records began forty years ago. The birds stop on the shallow lakes to rest and feed on
the harvested maize fields nearby before continuing south to Spain and North Africa. Rangers believe that the
restoration of flooded meadows in the north of the reserve has made the site more attractive.
The count took place at dawn, when the cranes leave their roosts in long noisy lines. Each of the forty
volunteers was responsible for one sector of the sky. Visitors are asked to stay on the marked paths and to keep
dogs on a lead, because disturbed birds waste energy they need for the long flight. Guided walks run every
weekend until the end of November.
""", """
The reserve's visitor centre lends binoculars free of charge to school groups.
"""),
    "password-manager": ("en", "Why your team should use a password manager", """
Most security incidents in small companies start with a reused or guessed password. A password manager lets
every employee use a long random password for every service without having to remember any of them. It also
makes sharing safer: instead of sending a password by chat, a team shares an entry in a vault, and access can be
removed when someone leaves the company.
Choose a manager that supports two-factor authentication, encrypts the vault on the device before syncing, and
can export your data in an open format. Roll it out in stages. Start with the accounts that matter most, such as
email, banking and the domain registrar, then move the rest over a few weeks. Keep a printed recovery kit in a
safe, and make sure at least two people can reach it.
""", """
Review the shared vaults every quarter and delete entries for services nobody uses any more.
"""),
    "library-hours": ("en", "Public library extends opening hours during exam season", """
The central public library will stay open until midnight from the first of May to the end of June to give
students a quiet place to prepare for exams. The reading rooms on the second and third floors will be reserved
for silent study, and the group rooms can be booked online up to a week in advance. Extra staff have been hired
for the evening shifts, and the café on the ground floor will keep serving hot drinks until ten.
Last year more than three thousand students used the extended hours, many of them from households without a
desk or a reliable internet connection. The library also lends laptops for use inside the building. Visitors
need a library card, which is free for residents and can be issued at the front desk in a few minutes.
""", """
The children's department keeps its usual hours during the exam period.
"""),
    "zh-tea": ("zh", "春茶上市 茶农忙采摘", """
清明前后，山区的茶园迎来了一年中最忙碌的季节。天刚亮，茶农们就背着竹篓上山，采摘刚刚冒出的嫩芽。
今年春天雨水充足，气温回升平稳，茶叶的产量和品质都比去年有所提高。
当地合作社负责人介绍，一芽一叶的明前茶每斤收购价在八百元左右，采摘工人每天可以挣到两百多元。
为了保证品质，合作社统一培训炒茶技术，并建立了从茶园到包装的全程记录。
越来越多的年轻人回到家乡，通过网络直播销售茶叶，让山里的好茶走进了城市的千家万户。
""", """
合作社还计划在明年建设一座茶文化体验馆，吸引游客前来参观。
"""),
    "zh-metro": ("zh", "地铁新线路开通 市民出行更便捷", """
本市地铁五号线今天正式开通运营，全长二十八公里，共设二十二座车站，连接城市东部的居住区和西部的科技园区。
开通后，从东站到科技园的通勤时间由原来的一个多小时缩短到四十分钟左右。
运营公司表示，早晚高峰的发车间隔为三分钟，平峰时段为六分钟，首班车早上六点发出，末班车晚上十一点发出。
新线路全线支持手机扫码和银行卡乘车，车站内设置了无障碍电梯和母婴室。
不少市民在开通首日专程体验，一位在科技园上班的年轻人说，以后每天可以多睡半个小时了。
""", """
沿线的公交线路也将在下周进行调整，方便乘客换乘。
"""),
    "zh-recycling": ("zh", "垃圾分类新规实施一个月 居民习惯逐步养成", """
垃圾分类新规实施一个月以来，全市大部分小区已经按照要求设置了四类垃圾桶，居民的分类习惯正在逐步养成。
在城南的一个老旧小区，志愿者每天早晚在投放点值守，帮助居民辨认厨余垃圾和其他垃圾。
社区工作人员说，刚开始很多老人觉得麻烦，现在大家已经能够熟练地把果皮菜叶单独装袋。
环卫部门的数据显示，厨余垃圾的分出量比新规实施前增加了一倍，填埋场的压力明显减轻。
下一步，相关部门将对分类效果较好的小区给予奖励，并继续加强宣传和检查。
""", """
居民如果对分类有疑问，可以拨打热线电话咨询。
"""),
}

# Unrelated pages that are posted on the same sites: they share the templates, not the content.
FILLER = {
    "weather-week": ("en", "Weather for the week ahead", """
A band of rain will cross the region on Tuesday, followed by cooler air from the north. Temperatures will stay
below the seasonal average until the weekend, when a ridge of high pressure brings sunshine and light winds.
Farmers are advised that the first ground frost is possible in sheltered valleys on Thursday night.
"""),
    "chess-club": ("en", "Chess club welcomes beginners on Wednesday evenings", """
The chess club meets every Wednesday at seven in the community hall. Beginners are welcome, and experienced
members run a short lesson on openings before the games start. Boards and clocks are provided, and the first
three evenings are free. Juniors under sixteen must be accompanied by an adult.
"""),
    "zh-weather": ("zh", "本周天气 冷空气来袭", """
受冷空气影响，本周中后期全市将出现明显降温，最低气温可能降到零度以下。
气象部门提醒市民及时添加衣物，注意防寒保暖，出行时注意道路结冰。周末天气转晴，气温逐渐回升。
"""),
}

SITES = {
    "portal": {
        "nav": ["Home", "World", "Local", "Business", "Science", "Sport", "Culture", "Opinion", "Contact"],
        "sidebar": ["Most read: Markets close higher after a quiet week",
                    "Most read: Ten walks for the long weekend",
                    "Advertisement: Save 30% on winter tyres this month only"],
        "footer": "Copyright 2026 Daily Portal Media. All rights reserved. Privacy policy | Terms of use | Cookie settings",
    },
    "blog": {
        "nav": ["Blog", "Archive", "About me", "Newsletter", "RSS"],
        "sidebar": ["Subscribe to the newsletter for weekly posts",
                    "Tags: city, food, technology, nature, travel",
                    "Sponsored: the best budget laptops of the year"],
        "footer": "© 2026 Notes from Elsewhere. This blog uses cookies to count visitors. Accept | Decline",
    },
    "aggregator": {
        "nav": ["首页", "新闻", "财经", "科技", "生活", "视频", "登录", "注册"],
        "sidebar": ["热门文章：十个提高效率的小技巧", "广告：新款手机限时优惠，立即抢购", "相关阅读：周末去哪儿玩"],
        "footer": "版权所有 © 2026 资讯聚合网 保留所有权利 | 隐私政策 | 联系我们 | 京ICP备00000000号",
    },
}

def paragraphs(body):
    text = " ".join(body.split("\n")).strip()
    # Chinese bodies are split on the full stop, English ones into two halves at a sentence end
    if "。" in text:
        parts = [p.strip() + "。" for p in text.split("。") if p.strip()]
    else:
        sentences = [s.strip() + "." for s in text.split(".") if s.strip()]
        half = len(sentences) // 2
        parts = [" ".join(sentences[:half]), " ".join(sentences[half:])]
    return parts

def render(site, title, paras):
    s = SITES[site]
    nav = "".join(f'<li><a href="/{i}">{html.escape(n)}</a></li>' for i, n in enumerate(s["nav"]))
    side = "".join(f'<li><a href="/side/{i}">{html.escape(n)}</a></li>' for i, n in enumerate(s["sidebar"]))
    body = "".join(f"<p>{html.escape(p)}</p>\n" for p in paras)
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(title)} - {site}</title>
<style>body{{font-family:sans-serif}} .ad{{border:1px solid #ccc}}</style>
<script>window.analytics=window.analytics||[];analytics.push(['page','{site}']);</script></head>
<body><header><div class="logo">{site.title()}</div><nav><ul>{nav}</ul></nav></header>
<div class="layout"><main><article><h1>{html.escape(title)}</h1>
{body}</article></main>
<aside class="sidebar"><ul>{side}</ul><div class="ad">Advertisement</div></aside></div>
<footer><p>{html.escape(s["footer"])}</p></footer>
<script>document.querySelectorAll('a').forEach(function(a){{a.rel='noopener'}});</script>
</body></html>
"""

def small_edit(paras, lang, rng):
    """Changes about 3% of the words (English) or characters (Chinese)."""
    out = []
    for p in paras:
        units = list(p) if lang == "zh" else p.split(" ")
        for _ in range(max(1, len(units) * 3 // 100)):
            i = rng.randrange(len(units))
            if rng.random() < 0.5:
                del units[i]
            else:
                units.insert(i, rng.choice(["的", "了", "也"] if lang == "zh" else ["really", "also", "quite"]))
        out.append(("" if lang == "zh" else " ").join(units))
    return out

def main():
    rng = random.Random(7)
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "pages")
    os.makedirs(out_dir, exist_ok=True)
    index = []

    def write(doc_id, group, variant, lang, fmt, content):
        name = f"{doc_id}.{ 'html' if fmt == 'html' else 'txt'}"
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(content)
        index.append({"id": doc_id, "file": name, "group": group, "variant": variant, "lang": lang, "format": fmt})

    for key, (lang, title, body, extra) in ARTICLES.items():
        paras = paragraphs(body)
        home, other = ("aggregator", "blog") if lang == "zh" else ("portal", "blog")
        write(f"{key}-original", key, "original on its home site", lang, "html", render(home, title, paras))
        write(f"{key}-repost", key, "re-posted under another site's template", lang, "html", render(other, title, paras))
        write(f"{key}-text", key, "plain-text copy of the article", lang, "text", title + "\n\n" + "\n\n".join(paras) + "\n")
        edited = small_edit(paras, lang, rng) + [" ".join(extra.split())]
        write(f"{key}-edited", key, "small edits and one added sentence", lang, "html", render(home, title, edited))
    for key, (lang, title, body) in FILLER.items():
        home = "aggregator" if lang == "zh" else "portal"
        write(f"{key}", key, "unrelated page on the same template", lang, "html", render(home, title, paragraphs(body)))

    with open(os.path.join(here, "pages.json"), "w", encoding="utf-8") as f:
        json.dump(index, f, ensure_ascii=False, indent=1)
    print(f"wrote {len(index)} pages to {out_dir}")

if __name__ == "__main__":
    main()
