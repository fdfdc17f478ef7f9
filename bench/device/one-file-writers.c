/* Sixteen threads writing 4 GiB (8 MiB writes, 256 MiB each) into the page cache four ways: one
 * file, sixteen files, one file preallocated first (fallocate), one file through a shared mapping
 * (mmap + MADV_POPULATE_WRITE). Shows what a multipart upload whose parts are written in place
 * into one assembly file can reach on a host's filesystem (docs/performance.md). Files go in /tmp.
 *   gcc -O2 -o /tmp/one-file-writers bench/device/one-file-writers.c -lpthread && /tmp/one-file-writers */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
enum { T = 16 };
static size_t PART = 256u << 20, CHUNK = 8u << 20;
static int mode; /* 0 one file pwrite, 1 own files pwrite, 2 one file mmap+populate */
static int fds[T];
static char *src;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void *run(void *a){
  long i=(long)a; int fd = mode==1 ? fds[i] : fds[0]; off_t base = mode==1 ? 0 : (off_t)i*PART;
  for(size_t o=0;o<PART;o+=CHUNK){
    if(mode==2){
      char *m=mmap(NULL,CHUNK,PROT_READ|PROT_WRITE,MAP_SHARED,fd,base+o);
      if(m==MAP_FAILED){perror("mmap");exit(1);}
      if(madvise(m,CHUNK,MADV_POPULATE_WRITE)){perror("populate");exit(1);}
      memcpy(m,src,CHUNK); munmap(m,CHUNK);
    } else if(pwrite(fd,src,CHUNK,base+o)!=(ssize_t)CHUNK){perror("pwrite");exit(1);}
  }
  return NULL;
}
int main(void){
  src=malloc(CHUNK); memset(src,7,CHUNK);
  const char *names[]={"one file, 16 pwrite threads","16 files, 16 pwrite threads","one file, 16 mmap+populate threads","one file fallocated, 16 pwrite threads"};
  for(int m=0;m<4;m++){
    mode = m==3 ? 0 : m;
    char p[64];
    for(int i=0;i<T;i++){ if(m!=1 && i>0){fds[i]=-1;continue;} snprintf(p,64,"/tmp/onefile-%d",i); unlink(p); fds[i]=open(p,O_RDWR|O_CREAT|O_TRUNC,0600); }
    if(m==2||m==3){ if(fallocate(fds[0],0,0,(off_t)PART*T)){perror("fallocate");} }
    if(m==2) { if(ftruncate(fds[0],(off_t)PART*T)) perror("ftruncate"); }
    pthread_t th[T]; double t=now();
    for(long i=0;i<T;i++) pthread_create(&th[i],NULL,run,(void*)i);
    for(int i=0;i<T;i++) pthread_join(th[i],NULL);
    double s=now()-t;
    printf("%-40s %.2f GB/s\n",names[m],(double)PART*T/s/1e9);
    for(int i=0;i<T;i++){ if(fds[i]>=0) close(fds[i]); snprintf(p,64,"/tmp/onefile-%d",i); unlink(p);} sync();
  }
  return 0;
}
