const puppeteer = require('puppeteer-core');
const fs=require('fs');
async function pages(){
  const b1 = await puppeteer.connect({browserURL:'http://127.0.0.1:9301', defaultViewport:null});
  const b2 = await puppeteer.connect({browserURL:'http://127.0.0.1:9302', defaultViewport:null});
  const p1 = (await b1.pages())[0], p2=(await b2.pages())[0];
  for (const [p,n] of [[p1,'p1'],[p2,'p2']]) {
    if (!p.__hooked) { p.on('console', m=>{ if(['error','warn','warning'].includes(m.type())) fs.appendFileSync(`/tmp/try/${n}.console`, new Date().toISOString()+' '+m.type()+' '+m.text()+'\n')});
      p.on('pageerror', e=>fs.appendFileSync(`/tmp/try/${n}.console`, new Date().toISOString()+' pageerror '+e.message+'\n')); }
  }
  await p1.setViewport({width:1280,height:800});
  await p2.setViewport({width:390,height:844,isMobile:true,hasTouch:true,deviceScaleFactor:2});
  return {b1,b2,p1,p2, done: async()=>{b1.disconnect(); b2.disconnect();}};
}
module.exports={pages};
